use super::*;

#[test]
fn standard_board_has_90_points_and_hex_board_79_cells() {
    assert_eq!(Standard::TABLES.cells(), 90);
    assert_eq!(Hex::TABLES.cells(), 79);
    let lens: Vec<usize> = (0..9).map(|f| Hex::TABLES.file_cells(f).count()).collect();
    assert_eq!(lens, [7, 8, 9, 10, 11, 10, 9, 8, 7]);
}
