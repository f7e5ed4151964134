use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = registry_chat::cli::Cli::parse();
    match registry_chat::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
