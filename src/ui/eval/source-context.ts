import { createContext, useContext } from 'react';

/**
 * Where the run's questions came from ("Questions: 3 marked by you · …"), or null for an
 * imported file: every figure, table and recommendation of the run says it.
 */
export const QuestionSourceContext = createContext<string | null>(null);

export function useQuestionSource(): string | null {
  return useContext(QuestionSourceContext);
}
