import gc

from bot.app.runtime import GC_THRESHOLDS, tune_gc


def test_tune_gc_freezes_what_start_up_left_and_makes_collections_rarer():
    thresholds = gc.get_threshold()
    try:
        tune_gc()
        assert gc.get_freeze_count() > 0  # start-up's objects are no longer walked
        assert gc.get_threshold() == GC_THRESHOLDS
        assert GC_THRESHOLDS[0] > thresholds[0]
    finally:  # the rest of the test run keeps Python's defaults
        gc.unfreeze()
        gc.set_threshold(*thresholds)
