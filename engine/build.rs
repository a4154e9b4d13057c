//! Writes the Zobrist key tables as constants, so the hot path reads plain arrays.
//! The chess keys are Polyglot's, taken from shakmaty (whose 64-bit hashes are Polyglot's);
//! the keys for dice rule state are our own, from a fixed-seed SplitMix64.

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{CastlingSide, Color, File, Piece, Role, Square};
use std::fmt::Write;

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn main() {
    let mut out = String::new();
    out.push_str("/// Polyglot piece keys, `[color][role][square]`.\npub const PIECE: [[[u64; 64]; 6]; 2] = [\n");
    for color in [Color::White, Color::Black] {
        out.push_str("  [\n");
        for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
            out.push_str("    [");
            for sq in Square::ALL {
                let Zobrist64(k) = Zobrist64::zobrist_for_piece(sq, Piece { color, role });
                write!(out, "{k:#018x},").unwrap();
            }
            out.push_str("],\n");
        }
        out.push_str("  ],\n");
    }
    out.push_str("];\n");
    let Zobrist64(white) = Zobrist64::zobrist_for_white_turn();
    writeln!(out, "/// Polyglot key for White to move.\npub const WHITE_TO_MOVE: u64 = {white:#018x};").unwrap();
    out.push_str(
        "/// Polyglot castling keys, `[color][0 = king side, 1 = queen side]`.\npub const CASTLING: [[u64; 2]; 2] = [",
    );
    for color in [Color::White, Color::Black] {
        let Zobrist64(k) = Zobrist64::zobrist_for_castling_right(color, CastlingSide::KingSide);
        let Zobrist64(q) = Zobrist64::zobrist_for_castling_right(color, CastlingSide::QueenSide);
        write!(out, "[{k:#018x}, {q:#018x}],").unwrap();
    }
    out.push_str("];\n/// Polyglot en-passant keys by file.\npub const EN_PASSANT: [u64; 8] = [");
    for file in File::ALL {
        let Zobrist64(k) = Zobrist64::zobrist_for_en_passant_file(file);
        write!(out, "{k:#018x},").unwrap();
    }
    out.push_str("];\n");
    let mut state = 0xa1ea_d1ce_5eed_0001u64;
    out.push_str("/// Our keys for Freedom's recapture square.\npub const RECAPTURE: [u64; 64] = [");
    for _ in 0..64 {
        write!(out, "{:#018x},", splitmix(&mut state)).unwrap();
    }
    out.push_str("];\n");
    writeln!(
        out,
        "/// Our key for a turn passed while in check.\npub const PASSED_IN_CHECK: u64 = {:#018x};",
        splitmix(&mut state)
    )
    .unwrap();
    out.push_str("/// Our keys for the node kind (a chance node; a decision after outcome i).\npub const NODE_KIND: [u64; 64] = [");
    for _ in 0..64 {
        write!(out, "{:#018x},", splitmix(&mut state)).unwrap();
    }
    out.push_str("];\n");
    out.push_str("/// Our keys for the en-passant targets of turns of several moves, by square.\npub const EP_TARGET: [u64; 64] = [");
    for _ in 0..64 {
        write!(out, "{:#018x},", splitmix(&mut state)).unwrap();
    }
    out.push_str("];\n");
    out.push_str("/// Our keys for the dice left in a turn: `[role][count]` (count 0 has key 0).\npub const DICE_LEFT: [[u64; 5]; 6] = [");
    for _ in 0..6 {
        out.push_str("[0,");
        for _ in 1..5 {
            write!(out, "{:#018x},", splitmix(&mut state)).unwrap();
        }
        out.push_str("],");
    }
    out.push_str("];\n");
    writeln!(
        out,
        "/// Our key for a turn in progress (the dice rolled).\npub const IN_TURN: u64 = {:#018x};",
        splitmix(&mut state)
    )
    .unwrap();
    writeln!(
        out,
        "/// Our key for a turn that may now only end by taking the king (a shorter sequence than the maximum rule asks).\npub const MUST_TAKE_KING: u64 = {:#018x};",
        splitmix(&mut state)
    )
    .unwrap();
    // Drawn after the others, so that adding it changed none of their keys.
    out.push_str("/// Our keys for the dice left that any piece may use (Gollon's count), by count (0 has key 0).\npub const DICE_LEFT_ANY: [u64; 5] = [0,");
    for _ in 1..5 {
        write!(out, "{:#018x},", splitmix(&mut state)).unwrap();
    }
    out.push_str("];\n");
    out.push_str("/// Our keys for a side whose last move gave check (Vegas: it does not roll next), by colour.\npub const GAVE_CHECK: [u64; 2] = [");
    for _ in 0..2 {
        write!(out, "{:#018x},", splitmix(&mut state)).unwrap();
    }
    out.push_str("];\n");
    out.push_str("/// Our keys for the square of the piece that makes a turn's micro-moves (gollon2).\npub const MOVER: [u64; 64] = [");
    for _ in 0..64 {
        write!(out, "{:#018x},", splitmix(&mut state)).unwrap();
    }
    out.push_str("];\n");
    let path = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("zobrist_keys.rs");
    std::fs::write(path, out).unwrap();
    println!("cargo::rerun-if-changed=build.rs");
}
