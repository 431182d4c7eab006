//! Perft from the start position against RULES.md's reference counts.

use damas::engine::{perft, Position, Variant};

const ENGLISH: [u64; 10] = [
    7, 49, 302, 1_469, 7_361, 36_768, 179_740, 845_931, 3_963_680, 18_391_564,
];
const SPANISH: [u64; 10] = [
    7, 49, 302, 1_469, 7_361, 36_473, 177_532, 828_783, 3_860_866, 17_743_464,
];

fn check(variant: Variant, expected: &[u64]) {
    let pos = Position::start(variant);
    for (i, &want) in expected.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(perft(&pos, depth), want, "{variant} perft({depth})");
    }
}

#[test]
fn english_perft_to_depth_10() {
    check(Variant::English, &ENGLISH);
}

#[test]
fn spanish_perft_to_depth_10() {
    check(Variant::Spanish, &SPANISH);
}

#[test]
fn portuguese_perft_equals_spanish_to_depth_10() {
    check(Variant::Portuguese, &SPANISH);
}
