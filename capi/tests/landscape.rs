//! Landscape scoring through the C ABI: the worked example of `examples/landscape.json`, tile
//! sets given by name, as inline TOML or as handles, and JSON that tries to make the library
//! read a file.

use std::ffi::{CStr, CString};
use std::ptr;

use carcassonne_capi::{
    carc_catalog, carc_catalog_builtin, carc_catalog_free, carc_error, carc_error_free,
    carc_error_line, carc_error_message, carc_landscape_options, carc_landscape_score,
    carc_landscape_score_free, carc_landscape_score_new, carc_landscape_score_totals, carc_result,
    carc_rules_default,
};

fn options() -> carc_landscape_options {
    // SAFETY: all-zero is a valid `carc_landscape_options`; the rules are set below.
    let mut options: carc_landscape_options = unsafe { std::mem::zeroed() };
    // SAFETY: `options.rules` is writable.
    assert_eq!(unsafe { carc_rules_default(&mut options.rules) }, carc_result::Ok);
    options
}

/// Scores `json` with `catalogs` and returns the totals, or the code and message of the
/// failure with its line.
fn score(json: &str, catalogs: &[*const carc_catalog]) -> Result<Vec<u32>, (carc_result, String)> {
    let json = CString::new(json).unwrap();
    let options = options();
    let mut score: *mut carc_landscape_score = ptr::null_mut();
    let mut err: *mut carc_error = ptr::null_mut();
    // SAFETY: every pointer is valid for what the function reads or writes.
    let code = unsafe {
        carc_landscape_score_new(
            json.as_ptr(),
            catalogs.as_ptr(),
            catalogs.len(),
            &options,
            &mut score,
            &mut err,
        )
    };
    if code != carc_result::Ok {
        // SAFETY: a failed call with an error slot fills it with a live error.
        let message = unsafe { CStr::from_ptr(carc_error_message(err)) }.to_string_lossy();
        // SAFETY: as above.
        let message = format!("line {}: {message}", unsafe { carc_error_line(err) });
        // SAFETY: `err` is live and freed once.
        unsafe { carc_error_free(err) };
        return Err((code, message));
    }
    let (mut totals, mut count) = (vec![0u32; 8], 0);
    // SAFETY: `score` is live; `totals` holds 8 writable numbers.
    let code = unsafe { carc_landscape_score_totals(score, totals.as_mut_ptr(), 8, &mut count) };
    assert_eq!(code, carc_result::Ok);
    // SAFETY: `score` is live and freed once.
    unsafe { carc_landscape_score_free(score) };
    totals.truncate(count);
    Ok(totals)
}

fn example() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/landscape.json");
    std::fs::read_to_string(path).expect("examples/landscape.json")
}

#[test]
fn the_worked_example_scores_as_the_command_line_tool_does() {
    assert_eq!(score(&example(), &[]), Ok(vec![13, 6]));
}

#[test]
fn tile_sets_may_be_inline_toml_or_handles() {
    let base_toml = carcassonne::Catalog::builtin("base").unwrap().to_toml();
    let inline = serde_json::json!([{ "toml": base_toml, "file": "my_base.toml" }]);
    let with_inline = example().replacen(r#"["base"]"#, &inline.to_string(), 1);
    assert_eq!(score(&with_inline, &[]), Ok(vec![13, 6]));

    let mut base = ptr::null_mut();
    // SAFETY: valid name and out pointer.
    let code = unsafe { carc_catalog_builtin(c"base".as_ptr(), &mut base, ptr::null_mut()) };
    assert_eq!(code, carc_result::Ok);
    let without_names = example().replacen(r#""tilesets": ["base"],"#, "", 1);
    assert_eq!(score(&without_names, &[base.cast_const()]), Ok(vec![13, 6]));
    // Both at once is ambiguous.
    let (code, message) = score(&example(), &[base.cast_const()]).unwrap_err();
    assert_eq!(code, carc_result::InvalidArgument, "{message}");
    // SAFETY: `base` is live and freed once.
    unsafe { carc_catalog_free(base) };
}

#[test]
fn landscape_json_never_reads_a_file() {
    // A path that exists and holds a valid tile set is still only a name, and no built-in
    // set has it.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tilesets/base.toml");
    let json = example().replacen(r#"["base"]"#, &serde_json::json!([path]).to_string(), 1);
    let (code, message) = score(&json, &[]).unwrap_err();
    assert_eq!(code, carc_result::JsonContent, "{message}");
    assert!(message.starts_with("line 2: tile set 0: "), "{message}");
}

#[test]
fn an_invalid_inline_tile_set_names_its_problems() {
    let inline = serde_json::json!([{ "toml": "[set]\nid = 3\n", "file": "broken.toml" }]);
    let json = example().replacen(r#"["base"]"#, &inline.to_string(), 1);
    let (code, message) = score(&json, &[]).unwrap_err();
    assert_eq!(code, carc_result::JsonContent, "{message}");
    assert!(message.contains("broken.toml:"), "{message}");
}
