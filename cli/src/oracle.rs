//! `rootguard oracle FILE.json`: the truth of every case of a scenario file.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use rootguard_judge::{compare_model_with_kernel, Document, Truth};

fn word(truth: Truth) -> &'static str {
    match truth {
        Truth::Inside => "inside",
        Truth::Outside => "outside",
        Truth::Either => "either",
    }
}

pub fn run(file: &Path, verify: bool) -> ExitCode {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("rootguard oracle: cannot read {}: {e}", file.display());
            return ExitCode::from(2);
        }
    };
    let doc = match Document::from_json(&text) {
        Ok(doc) => doc,
        Err(e) => {
            eprintln!(
                "rootguard oracle: {} is not a valid scenario file: {e}",
                file.display()
            );
            return ExitCode::from(2);
        }
    };
    match judge(&doc, verify, &mut io::stdout().lock()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("rootguard oracle: {e}");
            ExitCode::from(2)
        }
    }
}

/// Prints one line a case; returns whether every case agreed.
fn judge(
    doc: &Document,
    verify: bool,
    out: &mut impl Write,
) -> Result<bool, Box<dyn std::error::Error>> {
    let (mut agree, mut total) = (0usize, 0usize);
    for scenario in &doc.scenarios {
        let comparisons = compare_model_with_kernel(scenario)
            .map_err(|e| format!("scenario {:?}: {e}", scenario.name))?;
        for (c, written) in comparisons.iter().zip(&scenario.cases) {
            total += 1;
            let truth = c.model.truth;
            writeln!(
                out,
                "{}#{} {} {} {}",
                scenario.name,
                c.index,
                c.case.op,
                word(truth),
                written.path
            )?;
            let mut ok = true;
            if !c.judges_agree() {
                ok = false;
                writeln!(
                    out,
                    "  the model and the kernel disagree; please report this scenario:\n  {c}"
                )?;
            }
            if verify {
                match c.case.expect {
                    Some(expect) if Truth::from(expect) != truth => {
                        ok = false;
                        writeln!(
                            out,
                            "  DISAGREES: expect {expect}, truth {}: {}",
                            word(truth),
                            c.model.explanation
                        )?;
                    }
                    None => {
                        ok = false;
                        writeln!(out, "  DISAGREES: no expect to verify")?;
                    }
                    Some(_) => {}
                }
            }
            agree += usize::from(ok);
        }
    }
    if verify {
        writeln!(out, "{agree}/{total} cases agree")?;
    }
    Ok(agree == total)
}
