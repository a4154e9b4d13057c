//! Move generation by piece type, so a die roll costs no filtering of a full move list.
//!
//! Two kinds of generation:
//! - [`Legality::Legal`]: the chess moves that do not leave the mover's king attacked, with
//!   castling's no-castling-out-of-through-or-into-check rule. A king in check on the side *not*
//!   to move (after a passed turn) is never captured here: the rules add king captures themselves.
//! - [`Legality::PseudoLegal`]: every geometrically possible move, king captures included, and
//!   castling on the empty-squares condition alone (BrainKing's rules).
//!
//! Castling is produced when the king or the rook is asked for: it is a move of both types.

use crate::board::attacks;
use crate::board::bitboard::Bitboard;
use crate::board::chessmove::Move;
use crate::board::piece::{Color, Role, RoleSet};
use crate::board::square::Square;
use crate::board::{Board, CastlingSide};
use arrayvec::ArrayVec;

/// More than any position with at most 16 pieces a side can generate, pseudo-legal included.
pub const MAX_MOVES: usize = 384;

/// A move list on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Which moves count: chess-legal ones, or every pseudo-legal one (variants without check).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Legality {
    Legal,
    PseudoLegal,
}

const PROMOTION_ROLES: [Role; 4] = [Role::Queen, Role::Knight, Role::Rook, Role::Bishop];

/// A generator for one position: what generation needs (checkers, pins, targets) computed once,
/// then moves produced role by role.
#[derive(Clone, Copy)]
pub struct Generator<'a> {
    board: &'a Board,
    us: Color,
    occupied: Bitboard,
    /// Squares a non-king move may go to: not our own pieces, and, in legal mode, not the enemy
    /// king and (in check) only squares that capture or block the single checker.
    targets: Bitboard,
    king: Option<Square>,
    checkers: Bitboard,
    pinned: Bitboard,
    legality: Legality,
}

impl<'a> Generator<'a> {
    pub fn new(board: &'a Board, legality: Legality) -> Generator<'a> {
        let us = board.turn();
        let them = !us;
        let occupied = board.occupied();
        let mut targets = !board.by_color(us);
        let mut king = None;
        let mut checkers = Bitboard::EMPTY;
        let mut pinned = Bitboard::EMPTY;
        if legality == Legality::Legal {
            targets &= !board.pieces(them, Role::King);
            king = board.king(us);
            if let Some(k) = king {
                checkers = board.attackers(k, them, occupied);
                if let Some(checker) = checkers.first() {
                    targets &= if checkers.more_than_one() {
                        Bitboard::EMPTY
                    } else {
                        attacks::between(k, checker) | Bitboard::from_square(checker)
                    };
                }
                pinned = pinned_pieces(board, k, us);
            }
        }
        Generator { board, us, occupied, targets, king, checkers, pinned, legality }
    }

    /// Restricts a pinned piece's destinations to the line of its pin.
    #[inline]
    fn pin_mask(&self, from: Square) -> Bitboard {
        match self.king {
            Some(k) if self.pinned.contains(from) => attacks::line(k, from),
            _ => !Bitboard::EMPTY,
        }
    }

    fn piece_moves(&self, role: Role, list: &mut MoveList) {
        for from in self.board.pieces(self.us, role) {
            let dests = attacks::piece(role, from, self.occupied) & self.targets & self.pin_mask(from);
            for to in dests {
                list.push(Move::normal(from, to));
            }
        }
    }

    fn king_moves(&self, list: &mut MoveList) {
        let board = self.board;
        for from in board.pieces(self.us, Role::King) {
            let mut dests = attacks::king(from) & !board.by_color(self.us);
            if self.legality == Legality::Legal {
                dests &= !board.pieces(!self.us, Role::King);
                let without_king = self.occupied ^ Bitboard::from_square(from);
                for to in dests {
                    if board.attackers(to, !self.us, without_king).is_empty() {
                        list.push(Move::normal(from, to));
                    }
                }
            } else {
                for to in dests {
                    list.push(Move::normal(from, to));
                }
            }
        }
    }

    fn castling_moves(&self, list: &mut MoveList) {
        let board = self.board;
        let legal = self.legality == Legality::Legal;
        if legal && self.checkers.any() {
            return;
        }
        let Some(king) = board.king(self.us) else {
            return;
        };
        for side in CastlingSide::ALL {
            let Some(rook) = board.castling_rook(self.us, side) else {
                continue;
            };
            let m = Move::castle(king, rook);
            let king_to = m.castle_king_target();
            let rook_to = m.castle_rook_target();
            let movers = Bitboard::from_square(king) | Bitboard::from_square(rook);
            let must_be_empty = attacks::between(king, king_to)
                | Bitboard::from_square(king_to)
                | attacks::between(rook, rook_to)
                | Bitboard::from_square(rook_to);
            if (must_be_empty & self.occupied & !movers).any() {
                continue;
            }
            if legal {
                let them = !self.us;
                // Squares the king crosses, as the board stands; its destination, as it will stand.
                let crossed = attacks::between(king, king_to);
                if crossed.into_iter().any(|sq| board.attackers(sq, them, self.occupied).any()) {
                    continue;
                }
                let after = (self.occupied & !movers) | Bitboard::from_square(king_to) | Bitboard::from_square(rook_to);
                let attackers = board.attackers(king_to, them, after) & !Bitboard::from_square(rook);
                if attackers.any() {
                    continue;
                }
            }
            list.push(m);
        }
    }

    /// Pawn moves; with `promotions_only`, just those reaching the last rank, and with
    /// `promote_to`, only promotions to that role.
    fn pawn_moves(&self, promotions_only: bool, promote_to: Option<Role>, list: &mut MoveList) {
        let board = self.board;
        let us = self.us;
        let pawns = board.pieces(us, Role::Pawn);
        let white = us == Color::White;
        let last_rank = Bitboard::rank(if white { 7 } else { 0 });
        let double_rank = Bitboard::rank(if white { 3 } else { 4 });
        let empty = !self.occupied;
        let enemies = board.by_color(!us) & self.targets;
        let forward: i8 = if white { 8 } else { -8 };
        let allowed_dest = if promotions_only { last_rank } else { !Bitboard::EMPTY };

        let push_move = |list: &mut MoveList, from: Square, to: Square| {
            if last_rank.contains(to) {
                for role in PROMOTION_ROLES {
                    if promote_to.is_none_or(|r| r == role) {
                        list.push(Move::promotion(from, to, role));
                    }
                }
            } else {
                list.push(Move::normal(from, to));
            }
        };

        let single = pawns.shift_rank(white) & empty;
        let double = single.shift_rank(white) & empty & double_rank;
        for to in single & self.targets & allowed_dest {
            let from = to.offset(-forward);
            if self.pin_mask(from).contains(to) {
                push_move(list, from, to);
            }
        }
        if !promotions_only {
            for to in double & self.targets {
                let from = to.offset(-2 * forward);
                if self.pin_mask(from).contains(to) {
                    list.push(Move::normal(from, to));
                }
            }
        }
        for from in pawns {
            let caps = attacks::pawn(us, from) & enemies & allowed_dest & self.pin_mask(from);
            for to in caps {
                push_move(list, from, to);
            }
        }
        if promotions_only {
            return;
        }
        if let Some(ep) = board.ep_square() {
            let captured = Square::from_coords(ep.file(), if white { 4 } else { 3 });
            for from in attacks::pawn(!us, ep) & pawns {
                if self.legality == Legality::Legal && !self.en_passant_is_legal(from, ep, captured) {
                    continue;
                }
                list.push(Move::en_passant(from, ep));
            }
        }
    }

    /// En passant removes two pieces from a line at once, so it is checked by playing it out.
    fn en_passant_is_legal(&self, from: Square, to: Square, captured: Square) -> bool {
        let Some(k) = self.king else { return true };
        let occ =
            (self.occupied ^ Bitboard::from_square(from) ^ Bitboard::from_square(captured)) | Bitboard::from_square(to);
        let attackers = self.board.attackers(k, !self.us, occ) & !Bitboard::from_square(captured);
        attackers.is_empty()
    }
}

/// Our pieces that stand alone between our king and an enemy slider.
fn pinned_pieces(board: &Board, king: Square, us: Color) -> Bitboard {
    let them = !us;
    let occupied = board.occupied();
    let rooks = board.pieces(them, Role::Rook) | board.pieces(them, Role::Queen);
    let bishops = board.pieces(them, Role::Bishop) | board.pieces(them, Role::Queen);
    let snipers = (attacks::rook(king, Bitboard::EMPTY) & rooks) | (attacks::bishop(king, Bitboard::EMPTY) & bishops);
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let blockers = attacks::between(king, sniper) & occupied;
        if !blockers.more_than_one() {
            pinned |= blockers & board.by_color(us);
        }
    }
    pinned
}

impl Generator<'_> {
    /// Appends the moves of pieces of `role`, castling left out (see [`Generator::castles`]).
    pub fn role_moves(&self, role: Role, list: &mut MoveList) {
        let double_check = self.checkers.more_than_one();
        match role {
            Role::Pawn if !double_check => self.pawn_moves(false, None, list),
            Role::Knight | Role::Bishop | Role::Rook | Role::Queen if !double_check => self.piece_moves(role, list),
            Role::King => self.king_moves(list),
            _ => {}
        }
    }

    /// Has a piece of `role` a legal move (castling left out)? Stops at the first it finds,
    /// so it costs less than listing them where only that is asked.
    pub fn role_can_move(&self, role: Role) -> bool {
        if role != Role::King && self.checkers.more_than_one() {
            return false;
        }
        match role {
            Role::King => {
                let board = self.board;
                board.pieces(self.us, Role::King).into_iter().any(|from| {
                    let mut dests = attacks::king(from) & !board.by_color(self.us);
                    if self.legality != Legality::Legal {
                        return dests.any();
                    }
                    dests &= !board.pieces(!self.us, Role::King);
                    let without_king = self.occupied ^ Bitboard::from_square(from);
                    dests.into_iter().any(|to| board.attackers(to, !self.us, without_king).is_empty())
                })
            }
            Role::Pawn => {
                // Most often an unpinned pawn can step; otherwise every pawn move is listed.
                let white = self.us == Color::White;
                let free = self.board.pieces(self.us, Role::Pawn) & !self.pinned;
                if (free.shift_rank(white) & !self.occupied & self.targets).any() {
                    return true;
                }
                let mut list = MoveList::new();
                self.pawn_moves(false, None, &mut list);
                !list.is_empty()
            }
            _ => self
                .board
                .pieces(self.us, role)
                .into_iter()
                .any(|from| (attacks::piece(role, from, self.occupied) & self.targets & self.pin_mask(from)).any()),
        }
    }

    /// Appends the castling moves (a king move and a rook move at once).
    pub fn castles(&self, list: &mut MoveList) {
        self.castling_moves(list);
    }

    /// Appends the moves of the roles in `roles` (castling once).
    pub fn moves(&self, roles: RoleSet, list: &mut MoveList) {
        let double_check = self.checkers.more_than_one();
        if roles.contains(Role::Pawn) && !double_check {
            self.pawn_moves(false, None, list);
        }
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            if roles.contains(role) && !double_check {
                self.piece_moves(role, list);
            }
        }
        if roles.contains(Role::King) {
            self.king_moves(list);
        }
        if roles.contains(Role::King) || roles.contains(Role::Rook) {
            self.castling_moves(list);
        }
    }

    /// Appends the moves of the roles in `roles` that capture (en passant included) or promote:
    /// those of [`Generator::moves`] that change the material, without the quiet ones.
    pub fn captures(&self, roles: RoleSet, list: &mut MoveList) {
        let mut narrowed = *self;
        narrowed.targets &= self.board.by_color(!self.us);
        let double_check = self.checkers.more_than_one();
        if roles.contains(Role::Pawn) && !double_check {
            // Captures (onto the last rank: promotions too) and en passant; then, aimed at empty
            // squares only, the pushes that promote.
            narrowed.pawn_moves(false, None, list);
            let mut pushes = *self;
            pushes.targets &= !self.occupied;
            pushes.pawn_moves(true, None, list);
        }
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            if roles.contains(role) && !double_check {
                narrowed.piece_moves(role, list);
            }
        }
        if roles.contains(Role::King) {
            // The king's own rules (attacked squares) stay in `king_moves`; its captures are kept.
            let mut king = MoveList::new();
            self.king_moves(&mut king);
            let enemies = self.board.by_color(!self.us);
            list.extend(king.into_iter().filter(|m| enemies.contains(m.to())));
        }
    }

    /// Appends the pawn moves that promote, only to `promote_to` if given.
    pub fn promotions(&self, promote_to: Option<Role>, list: &mut MoveList) {
        if !self.checkers.more_than_one() {
            self.pawn_moves(true, promote_to, list);
        }
    }
}

/// Appends the moves of the roles in `roles` to `list`.
pub fn generate(board: &Board, roles: RoleSet, legality: Legality, list: &mut MoveList) {
    Generator::new(board, legality).moves(roles, list);
}

/// Appends the pawn moves that promote, only to `role` if given.
pub fn generate_promotions(board: &Board, promote_to: Option<Role>, legality: Legality, list: &mut MoveList) {
    Generator::new(board, legality).promotions(promote_to, list);
}

/// Does the side to move have a legal move? Stops at the first role that has one.
pub fn has_legal_move(board: &Board) -> bool {
    let generator = Generator::new(board, Legality::Legal);
    let mut list = MoveList::new();
    // Castling is left out: when it is legal, so is the king's step towards it.
    for role in [Role::King, Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        generator.role_moves(role, &mut list);
        if !list.is_empty() {
            return true;
        }
    }
    false
}

/// What telling whether a move gives check needs, computed once per position: the squares from
/// which each role would attack the enemy king, and our pieces whose leaving uncovers a check.
pub struct CheckInfo {
    king: Option<Square>,
    check_squares: [Bitboard; 6],
    discoverers: Bitboard,
}

impl CheckInfo {
    pub fn new(board: &Board) -> CheckInfo {
        let us = board.turn();
        let Some(king) = board.king(!us) else {
            return CheckInfo { king: None, check_squares: [Bitboard::EMPTY; 6], discoverers: Bitboard::EMPTY };
        };
        let occupied = board.occupied();
        let bishop = attacks::bishop(king, occupied);
        let rook = attacks::rook(king, occupied);
        let check_squares =
            [attacks::pawn(!us, king), attacks::knight(king), bishop, rook, bishop | rook, Bitboard::EMPTY];
        // Our pieces alone between one of our sliders and their king.
        let rooks = board.pieces(us, Role::Rook) | board.pieces(us, Role::Queen);
        let bishops = board.pieces(us, Role::Bishop) | board.pieces(us, Role::Queen);
        let snipers =
            (attacks::rook(king, Bitboard::EMPTY) & rooks) | (attacks::bishop(king, Bitboard::EMPTY) & bishops);
        let mut discoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & occupied;
            if !blockers.more_than_one() {
                discoverers |= blockers & board.by_color(us);
            }
        }
        CheckInfo { king: Some(king), check_squares, discoverers }
    }

    /// Does `m`, a move of `role` (legal here), give check?
    #[inline]
    pub fn gives_check(&self, board: &Board, m: Move, role: Role) -> bool {
        let Some(king) = self.king else { return false };
        if m.is_castle() || m.is_en_passant() || m.promotion_role().is_some() {
            return gives_check(board, m);
        }
        self.check_squares[role.index()].contains(m.to())
            || (self.discoverers.contains(m.from()) && !attacks::line(king, m.from()).contains(m.to()))
    }
}

/// The legal moves that give check (discovered checks, checking castles, en passant and
/// promotions included): the pieces' moves aimed only at the squares that check, the few pawn and
/// king moves tested one by one. Cheaper than generating every move when few of them check.
pub fn checking_moves(board: &Board, list: &mut MoveList) {
    let info = CheckInfo::new(board);
    let Some(their_king) = info.king else { return };
    let generator = Generator::new(board, Legality::Legal);
    // In double check only the king moves.
    let double_check = generator.checkers.more_than_one();
    if !double_check {
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            for from in board.pieces(generator.us, role) {
                let mut checking = info.check_squares[role.index()];
                if info.discoverers.contains(from) {
                    checking |= !attacks::line(their_king, from);
                }
                let dests = attacks::piece(role, from, generator.occupied)
                    & generator.targets
                    & generator.pin_mask(from)
                    & checking;
                for to in dests {
                    list.push(Move::normal(from, to));
                }
            }
        }
    }
    // Pawn and king moves are tested one by one, and generated only where one might check: a
    // pawn that can step or capture onto a checking square, uncovers a line, promotes or takes en
    // passant; the king uncovering a line; castling.
    let us = generator.us;
    let pawns = board.pieces(us, Role::Pawn);
    let mut pawn_sources = info.discoverers | Bitboard::rank(if us == Color::White { 6 } else { 1 });
    for to in info.check_squares[Role::Pawn.index()] {
        let back = Bitboard::from_square(to).shift_rank(us != Color::White);
        pawn_sources |= back | back.shift_rank(us != Color::White) | attacks::pawn(!us, to);
    }
    let mut others = MoveList::new();
    if !double_check && ((pawns & pawn_sources).any() || board.ep_square().is_some()) {
        generator.pawn_moves(false, None, &mut others);
    }
    if generator.king.is_some_and(|k| info.discoverers.contains(k)) {
        generator.king_moves(&mut others);
    }
    generator.castling_moves(&mut others);
    for &m in others.iter() {
        let role = if m.is_castle() { Role::King } else { board.role_at(m.from()).expect("a piece moves") };
        if info.gives_check(board, m, role) {
            list.push(m);
        }
    }
}

/// A legal move that mates, if the side to move has one.
pub fn checkmating_move(board: &Board) -> Option<Move> {
    let mut checks = MoveList::new();
    checking_moves(board, &mut checks);
    checks.iter().copied().find(|&m| {
        let mut after = board.clone();
        after.play(m);
        // Most checks leave the king a square to step to: that is asked first, without the
        // pins and check masks of a full generator.
        !king_can_step(&after) && !has_legal_move(&after)
    })
}

/// Can the side to move's king step to a square no enemy piece attacks (castling aside)?
fn king_can_step(board: &Board) -> bool {
    let us = board.turn();
    let Some(king) = board.king(us) else { return false };
    let without_king = board.occupied() ^ Bitboard::from_square(king);
    let dests = attacks::king(king) & !board.by_color(us) & !board.pieces(!us, Role::King);
    dests.into_iter().any(|to| board.attackers(to, !us, without_king).is_empty())
}

/// All legal chess moves.
pub fn legal_moves(board: &Board) -> MoveList {
    let mut list = MoveList::new();
    generate(board, RoleSet::ALL, Legality::Legal, &mut list);
    list
}

/// Does `m` (assumed legal) give check to the opponent's king?
pub fn gives_check(board: &Board, m: Move) -> bool {
    let mut after = board.clone();
    after.play(m);
    after.in_check()
}

/// Captures of the enemy king by pieces of these roles (for variants that allow them). A king
/// capture ends the game, so whether it would expose our own king does not matter.
pub fn king_captures(board: &Board, roles: RoleSet, list: &mut MoveList) {
    let us = board.turn();
    let Some(target) = board.king(!us) else {
        return;
    };
    let occupied = board.occupied();
    let attackers = board.attackers(target, us, occupied);
    let last_rank = target.rank() == if us == Color::White { 7 } else { 0 };
    for from in attackers {
        let role = board.role_at(from).expect("an attacker");
        if !roles.contains(role) {
            continue;
        }
        if role == Role::Pawn && last_rank {
            for promo in PROMOTION_ROLES {
                list.push(Move::promotion(from, target, promo));
            }
        } else {
            list.push(Move::normal(from, target));
        }
    }
}

/// Finds the move whose UCI text is `text` among `moves` (castling accepted in both notations).
pub fn find_uci(board: &Board, moves: &[Move], text: &str) -> Option<Move> {
    if text == "0000" {
        return None;
    }
    moves.iter().copied().find(|m| {
        let plain = m.to_uci(false).to_string();
        let king_takes_rook = m.to_uci(true).to_string();
        // King-to-target notation for a Chess960 castling could be ambiguous with a plain king
        // move; the plain king move wins because it is listed as a normal move.
        text == king_takes_rook || (text == plain && (!m.is_castle() || !is_plain_king_move(board, moves, &plain)))
    })
}

fn is_plain_king_move(board: &Board, moves: &[Move], text: &str) -> bool {
    moves
        .iter()
        .any(|m| !m.is_castle() && board.role_at(m.from()) == Some(Role::King) && m.to_uci(false).to_string() == text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// The checks generator gives exactly the legal moves that give check, along random games
    /// from positions with discovered checks, en passant, promotions and castling.
    #[test]
    fn checking_moves_are_the_legal_moves_that_check() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut checks = 0;
        for fen in [
            crate::services::bench::KIWIPETE,
            "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1",
            "4k3/8/8/2B1P3/8/2N5/1Q6/R3K2R w KQ - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3",
        ] {
            for _ in 0..40 {
                let mut board = Board::from_fen(fen).unwrap();
                for _ in 0..60 {
                    let all = legal_moves(&board);
                    let mut expected: Vec<Move> = all.iter().copied().filter(|&m| gives_check(&board, m)).collect();
                    let mut got = MoveList::new();
                    checking_moves(&board, &mut got);
                    let mut got = got.to_vec();
                    expected.sort_by_key(|m| m.bits());
                    got.sort_by_key(|m| m.bits());
                    assert_eq!(got, expected, "in {}", board.fen());
                    checks += got.len();
                    if all.is_empty() {
                        break;
                    }
                    board.play(all[rng.random_range(0..all.len())]);
                }
            }
        }
        assert!(checks > 2000, "{checks} checks compared");
    }

    /// The free-mate search finds a mate exactly when some legal move mates, and the king-step
    /// test agrees with the king's listed steps, along random games through mating nets.
    #[test]
    fn a_mate_is_found_exactly_when_one_exists() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(9);
        let (mut mates, mut steps_compared) = (0, 0);
        for fen in [
            crate::services::bench::KIWIPETE,
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3",
            "6k1/5ppp/8/8/8/8/5PPP/R1R3K1 w - - 0 1",
            "2kr3r/ppp2ppp/8/8/1n6/8/PPP2PPP/2KR1B1R w - - 0 1",
        ] {
            for _ in 0..40 {
                let mut board = Board::from_fen(fen).unwrap();
                for _ in 0..60 {
                    let all = legal_moves(&board);
                    let mating: Vec<Move> = all
                        .iter()
                        .copied()
                        .filter(|&m| {
                            let mut after = board.clone();
                            after.play(m);
                            after.in_check() && legal_moves(&after).is_empty()
                        })
                        .collect();
                    match checkmating_move(&board) {
                        Some(m) => assert!(mating.contains(&m), "{} does not mate in {}", m.to_uci(false), board.fen()),
                        None => assert!(mating.is_empty(), "a mate missed in {}", board.fen()),
                    }
                    mates += usize::from(!mating.is_empty());
                    let king_steps = all.iter().any(|m| !m.is_castle() && board.role_at(m.from()) == Some(Role::King));
                    assert_eq!(king_can_step(&board), king_steps, "in {}", board.fen());
                    steps_compared += 1;
                    if all.is_empty() {
                        break;
                    }
                    board.play(all[rng.random_range(0..all.len())]);
                }
            }
        }
        assert!(mates > 100 && steps_compared > 5000, "{mates} positions with a mate, {steps_compared} compared");
    }

    /// Whether a role can move agrees with listing its moves, along random games through pins,
    /// checks (double ones too), en passant and promotions.
    #[test]
    fn a_role_can_move_exactly_when_it_has_moves() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(8);
        let (mut positions, mut unable) = (0, 0);
        for fen in [
            crate::services::bench::KIWIPETE,
            "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1",
            "4k3/8/8/2B1P3/8/2N5/1Q6/R3K2R w KQ - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            for _ in 0..40 {
                let mut board = Board::from_fen(fen).unwrap();
                for _ in 0..60 {
                    let generator = Generator::new(&board, Legality::Legal);
                    for role in Role::ALL {
                        let mut list = MoveList::new();
                        generator.role_moves(role, &mut list);
                        assert_eq!(generator.role_can_move(role), !list.is_empty(), "{role:?} in {}", board.fen());
                        unable += usize::from(list.is_empty());
                    }
                    positions += 1;
                    let all = legal_moves(&board);
                    if all.is_empty() {
                        break;
                    }
                    board.play(all[rng.random_range(0..all.len())]);
                }
            }
        }
        assert!(positions > 5000 && unable > 2000, "{positions} positions, {unable} roles without a move");
    }

    /// The captures generator gives exactly the moves of the full generator that capture or
    /// promote, for every set of roles a die roll can ask for, in both legalities, along random
    /// games from positions with en passant, promotions and castling.
    #[test]
    fn captures_are_the_moves_that_capture_or_promote() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let mut compared = 0;
        for fen in [crate::services::bench::KIWIPETE, "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1"] {
            let mut board = Board::from_fen(fen).unwrap();
            for _ in 0..80 {
                for legality in [Legality::Legal, Legality::PseudoLegal] {
                    let generator = Generator::new(&board, legality);
                    for bits in 1..64u8 {
                        let roles = Role::ALL
                            .into_iter()
                            .filter(|r| bits >> r.index() & 1 == 1)
                            .fold(RoleSet::EMPTY, RoleSet::with);
                        let mut all = MoveList::new();
                        generator.moves(roles, &mut all);
                        let mut expected: Vec<Move> = all
                            .into_iter()
                            .filter(|&m| {
                                !m.is_castle() && (board.captured_square(m).is_some() || m.promotion_role().is_some())
                            })
                            .collect();
                        let mut captures = MoveList::new();
                        generator.captures(roles, &mut captures);
                        let mut got: Vec<Move> = captures.to_vec();
                        expected.sort_by_key(|m| format!("{m:?}"));
                        got.sort_by_key(|m| format!("{m:?}"));
                        assert_eq!(got, expected, "roles {bits:06b} in {}", board.fen());
                        compared += 1;
                    }
                }
                let mut moves = MoveList::new();
                generate(&board, RoleSet::ALL, Legality::Legal, &mut moves);
                if moves.is_empty() {
                    break;
                }
                board.play(moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(compared > 5000, "{compared} sets compared");
    }
}
