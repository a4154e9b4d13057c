use shakmaty::{CastlingMode, Chess};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let setup: shakmaty::fen::Fen = a[2].parse().unwrap();
    let pos: Chess = setup.into_position(CastlingMode::Chess960).unwrap();
    let d: u32 = a[1].parse().unwrap();
    println!("shakmaty {}", shakmaty::perft(&pos, d));
    let b = alea_engine::Board::from_fen(&a[2]).unwrap();
    println!("ours {}", alea_engine::perft::perft(&b, d));
}
