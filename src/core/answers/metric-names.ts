/** What answer runs measure, by name (a light module: the CLI's help and options list them). */
export const ANSWER_METRICS = ['answerExact', 'answerF1', 'abstention', 'judgeCorrect', 'faithfulness', 'promptTokens', 'answerMs'] as const;
export type AnswerMetricName = (typeof ANSWER_METRICS)[number];
/** Answer metrics where higher is better (what recommendations may rank by). */
export const ANSWER_RANKING_METRICS = ['answerExact', 'answerF1', 'judgeCorrect', 'faithfulness', 'abstention'] as const satisfies readonly AnswerMetricName[];
export type AnswerRankingMetric = (typeof ANSWER_RANKING_METRICS)[number];

export const ANSWER_METRIC_LABELS: Record<AnswerMetricName, string> = {
  answerExact: 'answer exact',
  answerF1: 'answer F1',
  abstention: 'correct abstentions',
  judgeCorrect: 'judged correct',
  faithfulness: 'faithfulness',
  promptTokens: 'prompt tokens',
  answerMs: 'ms per answer',
};

