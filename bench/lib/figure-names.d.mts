/** The names `bench/bench.mjs --only` takes (figure-names.mjs). */
export declare const FIGURE_NAMES: readonly string[];
