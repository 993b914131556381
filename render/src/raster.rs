//! Pictures as pixels: the SVG this crate writes, rasterised (feature `raster`).

use resvg::{tiny_skia, usvg};

/// A picture as 8-bit RGBA pixels, row by row from the top, unpremultiplied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rgba {
    /// Pixels a row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// `width × height × 4` bytes.
    pub pixels: Vec<u8>,
}

/// `svg` drawn at its own size, or scaled down to at most `max_pixels` pixels, with the
/// machine's fonts (a sans-serif family it has, for the score panel).
///
/// # Errors
/// A message when the SVG cannot be read back or the picture cannot be allocated.
pub fn rasterise(svg: &str, max_pixels: f64) -> Result<Rgba, String> {
    let mut options = usvg::Options::default();
    let fonts = options.fontdb_mut();
    fonts.load_system_fonts();
    // The picture asks for `sans-serif`, which fontdb maps to Arial unless told otherwise:
    // take a sans family the machine has, or any family at all.
    let families: Vec<String> =
        fonts.faces().flat_map(|face| face.families.iter().map(|(name, _)| name.clone())).collect();
    let sans = ["DejaVu Sans", "Liberation Sans", "Arial", "Helvetica", "Noto Sans"]
        .iter()
        .find(|wanted| families.iter().any(|family| family == *wanted))
        .map(|name| (*name).to_owned())
        .or_else(|| families.first().cloned());
    if let Some(sans) = sans {
        fonts.set_sans_serif_family(sans);
    }
    let tree = usvg::Tree::from_str(svg, &options)
        .map_err(|error| format!("the picture could not be read back: {error}"))?;
    let size = tree.size();
    let pixels = f64::from(size.width()) * f64::from(size.height());
    let scale = if pixels > max_pixels { (max_pixels / pixels).sqrt() } else { 1.0 };
    let width = (f64::from(size.width()) * scale).ceil().max(1.0) as u32;
    let height = (f64::from(size.height()) * scale).ceil().max(1.0) as u32;
    let mut pixmap = tiny_skia::Pixmap::new(width, height)
        .ok_or_else(|| format!("a {width}x{height} picture cannot be drawn"))?;
    let scale = scale as f32;
    resvg::render(&tree, tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    let pixels = pixmap.pixels().iter().flat_map(|pixel| {
        let colour = pixel.demultiply();
        [colour.red(), colour.green(), colour.blue(), colour.alpha()]
    });
    Ok(Rgba { width, height, pixels: pixels.collect() })
}

/// `svg` as a PNG file's bytes, as [`rasterise`] draws it.
///
/// # Errors
/// As [`rasterise`], and when the PNG cannot be encoded.
pub fn png(svg: &str, max_pixels: f64) -> Result<Vec<u8>, String> {
    let picture = rasterise(svg, max_pixels)?;
    let size = tiny_skia::IntSize::from_wh(picture.width, picture.height)
        .ok_or_else(|| "an empty picture".to_owned())?;
    let pixmap = tiny_skia::Pixmap::from_vec(premultiplied(picture.pixels), size)
        .ok_or_else(|| "the picture's pixels do not fit its size".to_owned())?;
    pixmap.encode_png().map_err(|error| format!("cannot encode the PNG: {error}"))
}

/// Unpremultiplied RGBA bytes premultiplied again, as tiny-skia keeps them.
fn premultiplied(mut pixels: Vec<u8>) -> Vec<u8> {
    for pixel in pixels.chunks_exact_mut(4) {
        let alpha = u16::from(pixel[3]);
        for channel in &mut pixel[..3] {
            *channel = ((u16::from(*channel) * alpha + 127) / 255) as u8;
        }
    }
    pixels
}
