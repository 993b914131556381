//! The `tileset` subcommands.

use std::path::Path;
use std::process::ExitCode;

use carcassonne::{BUILTIN_NAMES, Catalog, Code, LoadError};

use crate::Format;
use crate::play::plural;
use carcassonne_render::catalog_sheet;

/// A failure that ends the command, with a message for the user.
pub type CommandError = String;

pub fn list() -> Result<ExitCode, CommandError> {
    let mut out = String::new();
    for name in BUILTIN_NAMES {
        let catalog = load(name)?;
        out.push_str(&format!(
            "{name:<22} {:>3} tiles  {:>2} types  edition {}  {}\n",
            catalog.tile_count(),
            catalog.tiles().len(),
            catalog.info().edition,
            catalog.info().name
        ));
    }
    crate::write_stdout(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// Checks every file, printing all problems of all files; then, unless `each`, when there are
/// several and each is valid, whether they can be played together, printing every clash
/// under the code `dsl-sets-clash`. Fails if any file is invalid or any two clash.
pub fn check(files: &[String], each: bool) -> Result<ExitCode, CommandError> {
    let mut failed = 0;
    let mut loaded = Vec::new();
    for file in files {
        match Catalog::load(file) {
            Ok(catalog) => {
                crate::write_stdout(&format!(
                    "ok: {file}: set `{}`, {}, {}\n",
                    catalog.info().id,
                    plural(catalog.tiles().len() as u32, "tile type"),
                    plural(catalog.tile_count() as u32, "tile")
                ))?;
                loaded.push(catalog);
            }
            Err(LoadError::Invalid(diagnostics)) => {
                failed += 1;
                let (total, listed) = (diagnostics.problems(), diagnostics.len());
                let shown = if total > listed {
                    format!(", the first {} shown", listed - 1)
                } else {
                    String::new()
                };
                crate::write_stderr(&format!(
                    "{diagnostics}\n{file}: {total} problem{}{shown}\n",
                    if total == 1 { "" } else { "s" }
                ));
            }
            Err(other) => {
                failed += 1;
                crate::write_stderr(&format!("error: {other}\n"));
            }
        }
    }
    if failed == 0 && loaded.len() > 1 && !each {
        let clashes = carcassonne::clashes(&loaded);
        let together = files.join(" + ");
        for clash in &clashes {
            crate::write_stderr(&format!("error[{}]: {together}: {clash}\n", Code::SetsClash));
        }
        if clashes.is_empty() {
            crate::write_stdout(&format!("ok: {together}: the sets play together\n"))?;
        } else {
            failed += 1;
            let count = match clashes.len() {
                1 => "1 clash".to_owned(),
                many => format!("{many} clashes"),
            };
            crate::write_stderr(&format!("{together}: {count}\n"));
        }
    }
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

pub fn export(set: &str, format: Format, output: Option<&Path>) -> Result<ExitCode, CommandError> {
    let catalog = load(set)?;
    let text = match format {
        Format::Json => {
            let mut json = serde_json::to_string_pretty(&catalog)
                .map_err(|error| format!("cannot write JSON: {error}"))?;
            json.push('\n');
            json
        }
        Format::Toml => catalog.to_toml(),
    };
    write_output(output, &text)?;
    Ok(ExitCode::SUCCESS)
}

pub fn render(set: &str, output: &Path) -> Result<ExitCode, CommandError> {
    let catalog = load(set)?;
    crate::picture::write_picture(output, &catalog_sheet(&catalog), false)?;
    crate::write_stderr(&format!(
        "wrote {} ({} tile types of `{}`)\n",
        output.display(),
        catalog.tiles().len(),
        catalog.info().id
    ));
    Ok(ExitCode::SUCCESS)
}

fn load(set: &str) -> Result<Catalog, CommandError> {
    crate::play::load_set(set)
}

fn write_output(output: Option<&Path>, text: &str) -> Result<(), CommandError> {
    match output {
        Some(path) => std::fs::write(path, text)
            .map_err(|error| format!("cannot write {}: {error}", path.display())),
        None => crate::write_stdout(text),
    }
}
