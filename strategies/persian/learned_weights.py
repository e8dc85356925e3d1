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

Then a margin of 1.5 points added to feature 0 of the draw row (expert's own move; the fit's
``margin`` applied to round 2's weights only: -2.3234... -> -0.8234...), so the model leaves expert's
draw only where it sees a gain of more than 1.5 points. Chosen on fresh seed 20261207 (40,000 duplicate
deal sets, learned - expert: margin -2 +6.49, 0 +7.73, 1 +8.19, 2 +8.17, 3 +8.01, 4 +7.94, 8 +7.09),
confirmed on fresh seed 20261208 (160,000 deal sets, the same deals): margin 0 +7.60 [+7.29, +7.92],
1.5 +8.07 [+7.76, +8.37]. A third round of the same training (--rounds 3 --resume, 222 s at load 4)
fitted +7.85 [+7.40, +8.29] against round 2's +8.02 [+7.57, +8.46] (seed 20261206, 80,000 deal sets):
not taken.
"""

WEIGHTS = (
    (-0.8234495828435597, 0.0, 88.52941691596091, 123.66427341070012, -127.92697495238646, 7.398258891159064,
     -7.609328643259133, -8.990040992936944, 7.968887160830462, 30.458759535145433, 0.0, 0.0, 0.0,
     5.70628269426579),
    (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
)
