use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Embedding runs one forward pass per core at a time (`index::embed`), each on
    // its own thread. candle would also split every op of a pass over a shared,
    // locked pool of spinning threads; two passes then queue on that pool's lock
    // and spin (a fifth of the CPU under load). One thread per pass, unless the
    // operator says otherwise.
    if std::env::var_os("CANDLE_NUM_THREADS").is_none() {
        // SAFETY: first statement of main, before any thread exists.
        unsafe { std::env::set_var("CANDLE_NUM_THREADS", "1") };
    }
    let cli = registry_chat::cli::Cli::parse();
    match registry_chat::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
