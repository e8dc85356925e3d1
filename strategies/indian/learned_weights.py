"""Weights of Indian Rummy's `learned` strategy: one row of N_FEATURES per decision kind (draw,
discard), in the order of strategies/indian/features_nb.FEATURE_NAMES. A row that is feature 0
alone plays expert's own move (learned_nb skips the features for it).

Made by (nice, one thread, load 4-5 on 2 cores, shared; 714 s):
    rummy-sim train learned --game indian --players 4 --kinds draw,discard --decisions 16000 \
        --per-deal 8 --worlds 32 --eval-deals 4000 --seed 25 --out DIR --rounds 1
and taken from its round 1 (14,968 decisions of 2,000 deals played by expert in every seat:
draws with the stock, pile top and drop, discards with every legal discard, each move valued by
play-outs by expert from the true hands over 32 stock orders). The training's own match against
a field of expert (4,000 duplicate deal sets, seed 25 + 1000003): +7.37 [+6.46, +8.28] points per
deal. On fresh seed 20261204 (benchmarks/learned_indian.py, 4,000 deal sets): margin 0 +7.39
[+6.47, +8.30], 1 +7.40, 2 +7.12, 4 +5.92: no margin added. F_STOCK_LOW is 0 in every 4-player
decision (the three-deck stock never falls below 60 cards in these deals), so its weight is 0.
A second round of the same training (--rounds 2 --resume, 1,010 s) fitted +6.25 [+5.30, +7.21] in
its own match; on the same fresh deals (seed 20261206, 8,000 deal sets) round 1 +7.34 [+6.68, +8.01],
round 2 +6.27 [+5.59, +6.95]: not taken. learned_nb plays these weights at 3 to 6 seats only.
"""

WEIGHTS = (
    (3.3014338034211024, -104.97888768671767, 58.8133424660312, -57.40909858175413, 12.00124495018073, 14.908187032853549, 11.898698802299435, -6.231841243171963, -0.03678770972040021, -45.26374328026685, -4.649795217936734, 64.56885574707185, -30.616480594332046, -18.447734624924422, 0.0, 0.0, 0.5165414585293029, 0.14988203575644277, 0.0),
    (4.346465740143825, -84.59227327185445, 42.997092738273444, -15.95746185636244, 8.28815287463531, 9.768918150794878, 18.951573906600643, 0.0, -3.289433706583677, 0.0, 0.0, 0.0, 0.0, 0.0, -0.8658486066418767, 0.6791562042434713, -3.5840789863514817, -1.280402314307504, 0.0),
)
