//! `alea variants`: the variants as the registry holds them, one line each (name, board, dice,
//! the rules in a phrase), or as the Markdown table the README and docs/variants.md carry
//! (`--markdown`, which a test compares with both, so the docs' list cannot drift from the code).

use alea_engine::services::handle::GameHandle;
use alea_engine::services::registry::Variant;

#[derive(clap::Args)]
pub struct VariantsArgs {
    /// The Markdown table that README.md and docs/variants.md carry.
    #[arg(long)]
    markdown: bool,
}

/// One variant's facts for the list: its board's size and its dice, in words.
fn facts(variant: Variant) -> (String, String) {
    let game = GameHandle::of(variant, false).expect("every variant sets up its start");
    let (files, ranks) = game.size();
    let dice = match game.dice() {
        1 => "1 die".to_string(),
        n => format!("{n} dice"),
    };
    (format!("{files}x{ranks}"), dice)
}

/// The Markdown table: name, what it is, board, dice, the rules in a phrase.
pub fn markdown() -> String {
    let mut out =
        String::from("| `UCI_Variant` | variant | board | dice | rules in a phrase |\n|---|---|---|---|---|\n");
    for variant in Variant::ALL {
        let row = variant.row();
        let (board, dice) = facts(variant);
        let default = if variant == Variant::DEFAULT { " (default)" } else { "" };
        out.push_str(&format!(
            "| `{name}`{default} | {} | {board} | {dice} | {} |\n",
            row.title,
            row.summary,
            name = variant.name()
        ));
    }
    out
}

pub fn run(args: VariantsArgs) -> std::process::ExitCode {
    if args.markdown {
        print!("{}", markdown());
        return std::process::ExitCode::SUCCESS;
    }
    let width = Variant::ALL.iter().map(|v| v.name().len()).max().unwrap_or(0);
    for variant in Variant::ALL {
        let (board, dice) = facts(variant);
        let default = if variant == Variant::DEFAULT { " (default)" } else { "" };
        println!("{:<width$}  {board:<5}  {dice:<6}  {}{default}", variant.name(), variant.row().summary);
    }
    std::process::ExitCode::SUCCESS
}
