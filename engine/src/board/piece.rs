//! Colours, piece roles and pieces. The role order is the die's: face 1 pawn .. face 6 king.

use std::fmt;
use std::ops::Not;

/// The side a piece belongs to.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank (0..8) of this side's back rank.
    #[inline]
    pub const fn back_rank(self) -> u8 {
        match self {
            Color::White => 0,
            Color::Black => 7,
        }
    }

    /// `w` or `b`, as in FEN.
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// The colour [`Color::name`] names (`white`, `black`).
    pub fn from_name(name: &str) -> Option<Color> {
        [Color::White, Color::Black].into_iter().find(|c| c.name() == name)
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// A piece type, numbered as the die face that moves it minus one.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Role {
    pub const ALL: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

    /// The piece's name in English: `pawn` ... `king`.
    pub const fn name(self) -> &'static str {
        ["pawn", "knight", "bishop", "rook", "queen", "king"][self.index()]
    }

    /// The role a die face (1 to 6) names.
    pub const fn of_face(face: u8) -> Role {
        Role::ALL[face as usize - 1]
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The die face (1..=6) that moves this role.
    #[inline]
    pub const fn face(self) -> u8 {
        self as u8 + 1
    }

    /// The role a die face (1..=6) names.
    pub const fn from_face(face: u8) -> Option<Role> {
        match face {
            1..=6 => Some(Role::ALL[face as usize - 1]),
            _ => None,
        }
    }

    /// Lower-case letter as in FEN and UCI promotions (`p n b r q k`).
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    pub fn from_char(c: char) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.char() == c.to_ascii_lowercase())
    }
}

/// A coloured piece.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    /// FEN letter: upper case for White.
    pub fn char(self) -> char {
        match self.color {
            Color::White => self.role.char().to_ascii_uppercase(),
            Color::Black => self.role.char(),
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        Some(Piece { color, role })
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A set of roles, as one die outcome allows them (castling belongs to both rook and king).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct RoleSet(u8);

impl RoleSet {
    pub const EMPTY: RoleSet = RoleSet(0);
    pub const ALL: RoleSet = RoleSet(0b11_1111);

    #[inline]
    pub const fn single(role: Role) -> RoleSet {
        RoleSet(1 << role as u8)
    }

    #[inline]
    pub const fn with(self, role: Role) -> RoleSet {
        RoleSet(self.0 | 1 << role as u8)
    }

    #[inline]
    pub const fn contains(self, role: Role) -> bool {
        self.0 & (1 << role as u8) != 0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}
