"""Weights of the `learned` strategy: one row of N_FEATURES per decision kind (draw, play, discard),
in the order of strategies/persian/features_nb.FEATURE_NAMES.

Made by (load about 10-14 on 2 cores, 117 s for the round):
    nice -n 19 python -m strategies.persian.train --rounds 2 --deals 300 --per-deal 8 --samples 32 \
        --eval-deals 2000 --seed 25 --out DIR
and taken from its round 1 (2400 decisions fitted, values from play-outs by expert).
Round 1 measured against expert: -5.53 points per deal, 95% CI [-9.10, -1.95]
(2000 duplicate deal sets, seed 25 + 1000003): WEAKER than expert, not the +8 of
issue 25. Round 2 (play-outs by round 1's model) fell to -54.99.
"""

WEIGHTS = (
    (-1.06515, 0, 43.4418, 74.8824, -24.6338, 6.6018, 6.27876, 56.8313, 7.19168, -7.32339, 0, 0, 0, 5.89879),
    (1.59142, 28.3148, 19.1626, -22.0243, 0.990888, 15.3615, 0.0722921, 0, 0, -6.66422, 0, 0, -5.33787, 0),
    (3.20707, 0, 21.7875, 28.8873, 5.82888, -2.09213e-29, 15.2184, 0, 0, -2.71215, -9.48853, -4.3705, 0, 0),
)
