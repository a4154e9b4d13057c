use alea_engine::handle::{GameHandle, SearchRoot};
use alea_engine::search::{ChancePruning, SearchOptions, Shared};
use alea_engine::timeman::Limits;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game = GameHandle::setup("dicechess3", false, Some(&args[1]), None, &[]).unwrap();
    let depth: u32 = args[2].parse().unwrap();
    let pruning = match args[3].as_str() { "none" => ChancePruning::None, "star1" => ChancePruning::Star1, _ => ChancePruning::Star2 };
    let options = SearchOptions { chance_pruning: pruning, ..Default::default() };
    let r = game.search(&SearchRoot::Decision, Limits { depth: Some(depth), ..Default::default() }, options, &Shared::new(16), &mut |_| {}).unwrap();
    println!("{} nodes {:?} score {}", r.nodes, r.elapsed, r.score);
}
