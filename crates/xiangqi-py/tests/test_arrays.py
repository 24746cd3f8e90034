import numpy as np
import pytest

import xiangqi_rs as xq

RED_GENERAL, RED_SOLDIER, BLACK_GENERAL, BLACK_CHARIOT = 0, 6, 7, 11


def test_planes_hold_one_piece_per_occupied_square_in_the_documented_layout():
    p = xq.Position()
    planes = p.planes()
    assert planes.shape == (14, 10, 9) and planes.dtype == np.uint8
    assert planes.sum() == 32
    assert planes[RED_GENERAL, 0, 4] == 1  # e0: rank 0, file e
    assert planes[BLACK_GENERAL, 9, 4] == 1
    assert planes[BLACK_CHARIOT, 9, 0] == 1 and planes[BLACK_CHARIOT, 9, 8] == 1
    assert list(np.nonzero(planes[RED_SOLDIER, 3])[0]) == [0, 2, 4, 6, 8]
    assert p.planes("float32").dtype == np.float32
    assert (p.planes("float32") == planes).all()


def test_mover_view_turns_the_board_and_swaps_colours_for_black():
    p = xq.Position()
    p.play("h2e2")
    turned = p.planes(mover_view=True)
    # Black's general, seen from Black, stands on the mover's rank 0.
    assert turned[RED_GENERAL, 0, 4] == 1 and turned[BLACK_GENERAL, 9, 4] == 1
    # Red's cannon went to e2; turned half round it is on rank 7, file e.
    assert turned[7 + 5, 7, 4] == 1
    assert (xq.Position().planes(mover_view=True) == xq.Position().planes()).all()


def test_batches_stack_positions_and_hex_planes_fit_its_mask():
    ps = [xq.Position(), xq.Position("3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1")]
    batch = xq.planes(ps, dtype="float32")
    assert batch.shape == (2, 14, 10, 9)
    assert (batch[1] == ps[1].planes()).all()
    hex_mask = xq.board_mask("hex")
    assert hex_mask.shape == (11, 9) and hex_mask.sum() == 79
    h = xq.Position(variant="hex")
    planes = h.planes()
    assert planes.shape == (14, 11, 9)
    assert (planes.sum(axis=0) <= hex_mask).all() and planes.sum() == 32
    turned = h.planes(mover_view=True)
    assert (turned == planes).all()
    with pytest.raises(ValueError):
        xq.planes([xq.Position(), h])


def test_legal_move_arrays_name_the_squares_of_each_move():
    p = xq.Position()
    frm, to = p.legal_move_arrays()
    assert frm.dtype == np.int64 and len(frm) == len(to) == 44
    for f, t, m in zip(frm, to, p.legal_moves()):
        assert (f, t) == (m.from_square, m.to_square)
        assert xq.Move.from_squares(int(f), int(t)) == m
    assert xq.Move("h2e2").from_square == 2 * 9 + 7
