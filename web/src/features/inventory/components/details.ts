import { errorText } from '../../../lib/problems.js';

/** The DetailsPanel's messages and busy flag, from the mutation that saves the details. */
export const detailsState = (saving: { error: unknown; isSuccess: boolean; isPending: boolean }, subject: string) => ({
  error: errorText(saving.error, subject),
  saved: saving.isSuccess,
  busy: saving.isPending,
});
