/** The question-set formats the lab reads and writes (a light module: the CLI's help lists them without loading the formats). */
export const SET_FORMATS = ['jsonl', 'squad', 'beir', 'ragas', 'llamaindex'] as const;
export type SetFormat = (typeof SET_FORMATS)[number];
