//! Die Chess's solution is made when a front end asks for the setup to be done (the protocol's
//! `isready`), not at the first search, whose clock is running and which could not stop it.
//! A test file of its own: the table is one per process, and other tests solve it too.

use alea_engine::rules::diechess::DieChess;
use alea_engine::search::solve::table_in_use;
use alea_engine::services::handle::GameHandle;

#[test]
fn prepare_solves_die_chess_only_where_its_solution_plays() {
    assert!(table_in_use::<DieChess>().is_none());
    GameHandle::of(alea_engine::services::registry::Variant::Freedom, false).unwrap().prepare(true);
    let die_chess = GameHandle::of(alea_engine::services::registry::Variant::DieChess, false).unwrap();
    die_chess.prepare(false);
    assert!(table_in_use::<DieChess>().is_none(), "played by search, Die Chess needs no table");
    die_chess.prepare(true);
    let table = table_in_use::<DieChess>().expect("solved");
    // Solved once a process: preparing again keeps the same table.
    die_chess.prepare(true);
    assert!(std::sync::Arc::ptr_eq(&table, &table_in_use::<DieChess>().unwrap()));
}
