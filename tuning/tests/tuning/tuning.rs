//! Tuning: the fit recovers values that synthetic results were drawn from; self-play data
//! resumes after a cut without losing or duplicating games.

use alea_engine::eval::params::EvalParams;
use alea_engine::rules::pairing;
use alea_engine::rules::{ChessKind, ChessRules, OutcomeList, Position, Rules, TurnList};
use alea_engine::{Board, Game};
use alea_tuning::datafile::{decode, encode_header, layout};
use alea_tuning::datagen::{
    DatagenConfig, Sample, SamplePosition, generate_game, parse_text_data, read_data, run_datagen,
};
use alea_tuning::fit::{FitConfig, fit};
use alea_tuning::players::MoveLimit;

/// Positions from random classic games (random moves make lopsided material), each labelled
/// with a result drawn from the logistic curve of `truth`'s score: what a data set would look
/// like if `truth` were exactly right.
fn synthetic(truth: &EvalParams, games: u64, seed: u64) -> Vec<Sample> {
    let rules = ChessRules::new(ChessKind::Classic, false);
    let mut samples = Vec::new();
    for g in 0..games {
        let mut game = Game::new(rules, Position::new(Board::startpos()));
        for ply in 0..160u64 {
            if game.end().is_some() {
                break;
            }
            let pos = game.position().clone();
            let mut outcomes = OutcomeList::new();
            rules.outcomes(&pos, &mut outcomes);
            let roll = pairing::roll(seed, g, ply, &outcomes);
            let mut allowed = TurnList::new();
            rules.allowed_turns(&pos, &roll, &mut allowed);
            if ply >= 10 && ply % 3 == 0 && !pos.board.in_check() {
                let score = f64::from(truth.white_score(&pos.board));
                let p_white = 1.0 / (1.0 + 10f64.powf(-score / 400.0));
                let u = pairing::draw(seed ^ 0xabc, g, ply, 1_000_000) as f64 / 1e6;
                samples.push(Sample {
                    position: SamplePosition::Board(pos.board.clone()),
                    white_score: if u < p_white { 1.0 } else { 0.0 },
                    score: None,
                    ply: 0,
                    game: g,
                });
            }
            let pick = pairing::draw(seed ^ 0x77, g, ply, allowed.len() as u64) as usize;
            game.play(allowed[pick]);
        }
    }
    samples
}

#[test]
fn the_fit_recovers_the_values_synthetic_results_were_drawn_from() {
    let mut truth = alea_engine::services::registry::Variant::of_kind(ChessKind::Classic).starting_eval();
    truth.material = [[100, 250, 350, 450, 1000, 2000]; 2];
    let samples = synthetic(&truth, 1500, 9);
    assert!(samples.len() > 40_000, "{}", samples.len());
    let start = alea_engine::services::registry::Variant::of_kind(ChessKind::Classic).starting_eval();
    let config = FitConfig { epochs: 300, material_only: true, learning_rate: 2.0, ..FitConfig::default() };
    let fitted = fit(&samples, &start, &config, &mut |_, _| {});
    assert!(fitted.loss < fitted.start_loss);
    // K absorbs the overall scale; what the data determine are the values relative to each other.
    let k = fitted.k;
    for role in 0..5 {
        for stage in 0..2 {
            let got = f64::from(fitted.params.material[stage][role]) * k;
            let want = f64::from(truth.material[stage][role]);
            assert!((got - want).abs() < 0.08 * want + 8.0, "role {role} stage {stage}: {got:.0} vs {want}");
        }
    }
    // Starting from the truth, the values stay about where they are.
    let again = fit(&samples, &truth, &config, &mut |_, _| {});
    for role in 0..5 {
        let got = f64::from(again.params.material[0][role]) * again.k;
        let want = f64::from(truth.material[0][role]);
        assert!((got - want).abs() < 0.08 * want + 8.0, "role {role}: {got:.0} vs {want}");
    }
}

#[test]
fn square_tables_are_fitted_too() {
    // The truth rewards a knight in the centre: the fitted knight table must learn it.
    let mut truth = alea_engine::services::registry::Variant::of_kind(ChessKind::Classic).starting_eval();
    for rank in 2..6 {
        for file in 2..4 {
            for stage in 0..2 {
                truth.psqt[stage][1][rank * 4 + file] = 120;
            }
        }
    }
    let samples = synthetic(&truth, 800, 4);
    let start = alea_engine::services::registry::Variant::of_kind(ChessKind::Classic).starting_eval();
    let config = FitConfig { epochs: 300, learning_rate: 2.0, ..FitConfig::default() };
    let fitted = fit(&samples, &start, &config, &mut |_, _| {});
    let table = &fitted.params.psqt[0][1];
    let centre = (table[3 * 4 + 3] + table[4 * 4 + 3] + table[3 * 4 + 2] + table[4 * 4 + 2]) / 4;
    let corner = (table[0] + table[7 * 4]) / 2;
    assert!(centre - corner > 40, "centre {centre} corner {corner}: {:?}", table);
}

fn datagen_config(games: u64) -> DatagenConfig {
    DatagenConfig {
        variant: alea_engine::services::registry::Variant::Freedom,
        chess960: false,
        games,
        limit: MoveLimit::Depth(1),
        unkept_limit: None,
        seed: 3,
        random_plies: 6,
        max_plies: 120,
        eval: None,
        net: None,
        use_net: true,
        shard: alea_tuning::shard::Shard::WHOLE,
    }
}

/// A game as the comparison sees it: index, summary, positions (FEN, score, ply).
type GameView = (u64, String, Vec<(String, Option<i16>, u16)>);

/// A data file's games, in the order of the games.
fn games_of(bytes: &[u8]) -> Vec<GameView> {
    let found = layout(bytes).unwrap();
    let mut games: Vec<_> = found
        .games
        .iter()
        .map(|(index, range)| {
            let mut one = encode_header(&found.header);
            one.extend(&bytes[range.clone()]);
            let (data, _) = decode(&one).unwrap();
            let positions = data.samples.iter().map(|s| (s.fen(), s.score, s.ply)).collect();
            (*index, format!("{:?}", data.games[0]), positions)
        })
        .collect();
    games.sort();
    games
}

/// `--unkept`: the plies whose position the data does not keep are searched at the cheaper
/// limit, the kept ones at the full one. Until the first ply that is not kept, a game is the
/// one the full limit plays, kept positions and scores alike; after it, games may part.
#[test]
fn datagen_searches_the_unkept_plies_at_the_cheaper_limit() {
    let full = DatagenConfig { limit: MoveLimit::Depth(2), ..datagen_config(8) };
    let cheap = DatagenConfig { unkept_limit: Some(MoveLimit::Depth(1)), ..full.clone() };
    assert!(cheap.header().contains(" depth=2 unkept-depth=1 "), "{}", cheap.header());
    assert!(!full.header().contains("unkept"), "{}", full.header());
    let (mut same_start, mut parted) = (0, 0);
    for index in 0..8 {
        let (a, b) = (generate_game(&full, index), generate_game(&cheap, index));
        let view = |g: &alea_tuning::datagen::GameData| -> Vec<(String, Option<i16>, u16)> {
            g.positions.iter().map(|s| (s.fen(), s.score, s.ply)).collect()
        };
        let (a, b) = (view(&a), view(&b));
        // The first searched ply (after the random ones) is played alike when it is kept.
        if a.first().is_some_and(|p| p.2 == full.random_plies as u16) {
            assert_eq!(a.first(), b.first(), "game {index}");
            same_start += 1;
        }
        parted += usize::from(a != b);
    }
    assert!(same_start > 0 && parted > 0, "{same_start} games began kept, {parted} parted");
}

#[test]
fn datagen_resumes_after_a_cut_without_duplicating_games() {
    let scratch = tempfile::Builder::new().prefix("alea-datagen-").tempdir().unwrap();
    let dir = scratch.path();
    let whole = dir.join("whole.data");
    let cut = dir.join("cut.data");
    let _ = std::fs::remove_file(&whole);
    let _ = std::fs::remove_file(&cut);
    let config = datagen_config(12);
    assert_eq!(run_datagen(&config, &whole, false, 2, &|_, _| {}).unwrap(), 12);
    let bytes = std::fs::read(&whole).unwrap();
    let data = read_data(&whole).unwrap();
    assert_eq!(data.games.len(), 12);
    assert!(data.samples.len() > 100);
    // Past the random plies every position has its player's search score, and the scores agree
    // with the results more often than not.
    let scored: Vec<&Sample> = data.samples.iter().filter(|s| s.score.is_some()).collect();
    assert!(scored.len() * 10 >= data.samples.len() * 9, "{} of {}", scored.len(), data.samples.len());
    let agree = scored
        .iter()
        .filter(|s| {
            let white = if s.board().unwrap().turn() == alea_engine::Color::White { 1 } else { -1 }
                * i32::from(s.score.unwrap());
            s.white_score != 0.5 && (white > 0) == (s.white_score > 0.5) && white != 0
        })
        .count();
    let decided = scored.iter().filter(|s| s.white_score != 0.5 && s.score != Some(0)).count();
    assert!(agree * 2 > decided, "{agree} of {decided}");
    // A second run without --resume refuses to touch the file.
    assert!(run_datagen(&config, &whole, false, 1, &|_, _| {}).is_err());
    // Nor does a resume while another run holds the file (two would write over each other).
    {
        let held = std::fs::OpenOptions::new().read(true).write(true).open(&whole).unwrap();
        held.lock().unwrap();
        let refused = run_datagen(&config, &whole, true, 1, &|_, _| {}).unwrap_err();
        assert!(refused.contains("another run"), "{refused}");
        assert_eq!(std::fs::read(&whole).unwrap(), bytes, "the held file is unchanged");
    }
    // Another header is refused on resume.
    let other = DatagenConfig { seed: 4, ..config.clone() };
    assert!(run_datagen(&other, &whole, true, 1, &|_, _| {}).is_err());
    // So are other players: an evaluation other than the one the file was made with (the
    // header names it by a checksum; a binary whose default changed would differ the same way).
    let mut params =
        alea_engine::services::handle::GameHandle::of(alea_engine::services::registry::Variant::Freedom, false)
            .unwrap()
            .default_eval();
    params.material[0][1] += 10;
    let other_players = DatagenConfig { eval: Some(std::sync::Arc::new(params)), ..config.clone() };
    assert_ne!(other_players.header(), config.header());
    let refused = run_datagen(&other_players, &whole, true, 1, &|_, _| {}).unwrap_err();
    assert!(refused.contains("other settings"), "{refused}");
    assert!(config.header().contains(" eval="), "{}", config.header());
    // Freedom's players score with its network, which the header names; with the tables alone
    // (`--eval tables`) they are other players again.
    assert!(config.header().contains(" net="), "{}", config.header());
    let tables_alone = DatagenConfig { use_net: false, ..config.clone() };
    assert!(!tables_alone.header().contains(" net="), "{}", tables_alone.header());
    assert!(
        run_datagen(&tables_alone, &whole, true, 1, &|_, _| {}).unwrap_err().to_string().contains("other settings")
    );
    // A file from before headers named the evaluation is resumed as it is.
    let before = dir.join("before.data");
    let old_header = config.header().split(" eval=").next().unwrap().to_string();
    let mut old = encode_header(&old_header);
    old.extend(&bytes[layout(&bytes).unwrap().games[0].1.clone()]);
    std::fs::write(&before, &old).unwrap();
    assert_eq!(run_datagen(&config, &before, true, 2, &|_, _| {}).unwrap(), 11);
    assert_eq!(read_data(&before).unwrap().header, old_header);

    // Cut the file in the middle of the sixth game, as a kill mid-write would.
    let found = layout(&bytes).unwrap();
    let fifth_end = found.games[4].1.end;
    std::fs::write(&cut, &bytes[..fifth_end + 10]).unwrap();
    let (partial, complete) = decode(&bytes[..fifth_end + 10]).unwrap();
    assert_eq!((partial.games.len(), complete), (5, fifth_end));
    let played = run_datagen(&config, &cut, true, 2, &|_, _| {}).unwrap();
    assert_eq!(played, 7, "only the missing games are played");
    let resumed = std::fs::read(&cut).unwrap();
    let mut indices: Vec<u64> = read_data(&cut).unwrap().games.iter().map(|g| g.index).collect();
    indices.sort_unstable();
    assert_eq!(indices, (0..12).collect::<Vec<_>>());
    // The same games as the uninterrupted run (they may finish in another order).
    assert_eq!(games_of(&resumed), games_of(&bytes));
    // Resuming a finished file plays nothing.
    assert_eq!(run_datagen(&config, &cut, true, 2, &|_, _| {}).unwrap(), 0);
    // A damaged game (not the last) is refused, on resume too.
    let mut damaged = bytes.clone();
    damaged[found.games[2].1.start + 40] ^= 0x10;
    std::fs::write(&cut, &damaged).unwrap();
    assert!(read_data(&cut).unwrap_err().to_string().contains("checksum"));
    assert!(run_datagen(&config, &cut, true, 1, &|_, _| {}).unwrap_err().to_string().contains("checksum"));
    assert_eq!(std::fs::read(&cut).unwrap(), damaged, "a refused resume changes nothing");
}

#[test]
fn a_corrupt_data_file_is_refused_with_its_line() {
    // The older text form is still read (by fit and report), and checked as before.
    let bad = "# alea datagen variant=freedom depth=1 seed=1 random-plies=0 max-plies=10\nnot a fen | 1-0\n";
    let err = parse_text_data(bad).unwrap_err();
    assert!(err.contains("line 2"), "{err}");
    let bad_result = "# alea datagen variant=freedom\n8/8/8/8/8/8/8/K6k w - - 0 1 | 2-0\ngame 0 1-0 plies 1 white-freedom 0 black-freedom 0 recapture 0 defend 0 check 0 reason x\n";
    assert!(parse_text_data(bad_result).is_err());
    let good = "# alea datagen variant=freedom\n8/8/8/8/8/8/8/K6k w - - 0 1 | 1-0\ngame 0 1-0 plies 1 white-freedom 0 black-freedom 0 recapture 0 defend 0 check 0 reason x\n";
    let data = parse_text_data(good).unwrap();
    assert_eq!(
        (data.header.as_str(), data.samples.len(), data.samples[0].score),
        ("alea datagen variant=freedom", 1, None)
    );
    assert!(decode(b"hello\n").unwrap_err().to_string().contains("not an alea datagen file"));
}

#[test]
fn datagen_plays_dicechess3_and_its_positions_are_quiet() {
    let scratch = tempfile::Builder::new().prefix("alea-datagen3-").tempdir().unwrap();
    let dir = scratch.path();
    let path = dir.join("d3.data");
    let _ = std::fs::remove_file(&path);
    let config = DatagenConfig {
        variant: alea_engine::services::registry::Variant::DiceChess3,
        random_plies: 2,
        ..datagen_config(6)
    };
    assert_eq!(run_datagen(&config, &path, false, 2, &|_, _| {}).unwrap(), 6);
    let data = read_data(&path).unwrap();
    assert!(data.header.contains("variant=dicechess3"), "{}", data.header);
    assert_eq!(data.games.len(), 6);
    assert!(!data.samples.is_empty());
    // Every kept position is quiet: whatever three dice come, no turn captures or promotes.
    use alea_engine::services::handle::{GameHandle, RollSpec};
    for s in data.samples.iter().take(10) {
        let game =
            GameHandle::setup(alea_engine::services::registry::Variant::DiceChess3, false, Some(&s.fen()), None, &[])
                .unwrap();
        let quiet_rolls = game
            .outcomes()
            .iter()
            .filter(|o| {
                let allowed = game.allowed_turns(&RollSpec::Faces(o.roll.faces().to_vec())).unwrap();
                allowed.iter().all(|t| game.material_gain(t) == 0)
            })
            .count();
        assert!(quiet_rolls > 0, "{}", s.fen());
    }
}

#[test]
fn the_big_boards_weights_are_recovered_from_synthetic_results() {
    use alea_tuning::fit::{TermSample, fit_terms};
    // Terms as a big board's game has them (counts of each kind, pawn steps, centrality, White's
    // minus Black's), results drawn from known weights.
    let truth = [100.0, 250.0, 350.0, 450.0, 1000.0, 700.0, 10.0, 6.0];
    let mut samples = Vec::new();
    for n in 0..30_000u64 {
        let r = |k: u64, span: u64| pairing::draw(17, n, k, span) as i32 - (span / 2) as i32;
        let terms = [r(0, 7), r(1, 5), r(2, 5), r(3, 5), r(4, 3), r(5, 3), r(6, 41), r(7, 41)];
        let score: f64 = terms.iter().zip(truth).map(|(&t, w)| f64::from(t) * w).sum();
        let p_white = 1.0 / (1.0 + 10f64.powf(-score / 400.0));
        let u = pairing::draw(18, n, 0, 1_000_000) as f64 / 1e6;
        samples.push(TermSample { terms, result: if u < p_white { 1.0 } else { 0.0 } });
    }
    let start = alea_engine::services::handle::GameHandle::of(alea_engine::services::registry::Variant::Grand, false)
        .unwrap()
        .starting_eval();
    let config = FitConfig { epochs: 60, ..FitConfig::default() };
    let fitted = fit_terms(&samples, &start, &config, &mut |_, _| {});
    assert!(fitted.loss < fitted.start_loss);
    // K absorbs the overall scale; the weights relative to each other are what the data fix.
    let got = alea_engine::eval::big::BigEval::from_params(&fitted.params).weights().map(|w| f64::from(w) * fitted.k);
    for (i, (g, w)) in got.iter().zip(truth).enumerate() {
        assert!((g - w).abs() < 0.1 * w + 10.0, "term {i}: {g:.0} against {w}: {got:?}");
    }
    assert_eq!(fitted.params.material[0], fitted.params.material[1], "one stage on a big board");
    assert!(fitted.params.flat_tables());
    // Material only: the two step weights stay where they start.
    let material = fit_terms(&samples, &start, &FitConfig { material_only: true, ..config }, &mut |_, _| {});
    assert_eq!((material.params.pawn_step, material.params.centre), (start.pawn_step, start.centre));
}

#[test]
fn big_board_self_play_is_written_as_fen_and_fitted_by_its_terms() {
    use alea_tuning::fit::{fit_terms, term_samples};
    let scratch = tempfile::Builder::new().prefix("alea-datagen-big-").tempdir().unwrap();
    let dir = scratch.path();
    let path = dir.join("bk10.data");
    let config = DatagenConfig {
        variant: alea_engine::services::registry::Variant::BrainKing10,
        random_plies: 4,
        ..datagen_config(6)
    };
    assert_eq!(run_datagen(&config, &path, false, 2, &|_, _| {}).unwrap(), 6);
    let data = read_data(&path).unwrap();
    assert!(data.samples.len() > 50, "{}", data.samples.len());
    assert!(data.samples.iter().all(|s| s.board().is_none() && s.fen().split('/').count() == 10));
    let terms = term_samples(alea_engine::services::registry::Variant::BrainKing10, &data.samples).unwrap();
    assert_eq!(terms.len(), data.samples.len());
    // The terms are those of the position: set up again, the same.
    let again = alea_engine::services::handle::GameHandle::setup(
        alea_engine::services::registry::Variant::BrainKing10,
        false,
        Some(&data.samples[7].fen()),
        None,
        &[],
    );
    assert_eq!(again.unwrap().eval_terms().unwrap(), terms[7].terms.to_vec());
    let start =
        alea_engine::services::handle::GameHandle::of(alea_engine::services::registry::Variant::BrainKing10, false)
            .unwrap()
            .starting_eval();
    let fitted = fit_terms(&terms, &start, &FitConfig { epochs: 50, ..FitConfig::default() }, &mut |_, _| {});
    assert!(fitted.loss <= fitted.start_loss);
    // The 8x8 tables' fit is not given FEN positions, nor the big boards' an 8x8 variant.
    assert!(term_samples(alea_engine::services::registry::Variant::Freedom, &data.samples).is_err());
}
