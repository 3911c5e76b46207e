import { envelopeSchema, ok } from "@contracts/envelope";
import { type MusicInfo, musicInfoSchema } from "@contracts/suite";
import { SharedAnswer } from "../../http/shared-answer.js";

/** GET /api/forntend/getmusicinfo's response schema: the route declares it, the kept answer is encoded through it. */
export const suiteAnswerSchema = envelopeSchema(musicInfoSchema);
const answers = new WeakMap<MusicInfo, SharedAnswer>();

/**
 * A suite's API answer, made once per kept copy of its data (suite-service.ts): the same bytes
 * for every request, compressed once, with an ETag. Its `views` is the count the data was read
 * with; the exact count comes from the page's view beacon (ADR 0053).
 */
export function suiteAnswer(kept: MusicInfo): SharedAnswer {
  let answer = answers.get(kept);
  if (!answer) {
    answer = SharedAnswer.json(suiteAnswerSchema, ok(kept));
    answers.set(kept, answer);
  }
  return answer;
}
