"""Weights of the `learned` strategy: one row of N_FEATURES per decision kind (draw, play, discard),
in the order of strategies/persian/features_nb.FEATURE_NAMES. Only the draw row is learned; the
play and discard rows are expert's own move (feature 0 alone), which learned_nb plays without
computing features.

Made by (load 13-17 on 2 cores, shared; 619 s for round 1, 1204 s for round 2):
    nice -n 19 rummy-sim train learned --kinds draw --decisions 16000 --worlds 64 --eval-deals 4000 \
        --seed 25 --out DIR --rounds 1
    nice -n 19 rummy-sim train learned --kinds draw --decisions 16000 --worlds 64 --eval-deals 4000 \
        --seed 25 --out DIR --rounds 2 --resume
and taken from its round 2 (15,062 draw decisions of deals played by round 1's model, every legal
move valued by play-outs by round 1's model from the true hands, 64 stock orders).
The training's own matches against expert (4,000 duplicate deal sets each, seeds 25 + 1000003 + r):
round 1 +6.24 [+4.20, +8.28], round 2 +8.27 [+6.32, +10.23] points per deal.
"""

WEIGHTS = (
    (-2.3234495828435597, 0.0, 88.52941691596091, 123.66427341070012, -127.92697495238646, 7.398258891159064,
     -7.609328643259133, -8.990040992936944, 7.968887160830462, 30.458759535145433, 0.0, 0.0, 0.0,
     5.70628269426579),
    (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
)
