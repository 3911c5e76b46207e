import { envelopeSchema, ok } from "@contracts/envelope";
import { type MusicInfo, musicInfoSchema } from "@contracts/suite";
import { z } from "zod";
import { SplicedAnswer } from "../../http/spliced-answer.js";

const withoutViews = musicInfoSchema.omit({ views: true });
const envelopeHead = envelopeSchema(z.null()).omit({ data: true, time: true });
const answers = new WeakMap<MusicInfo, SplicedAnswer>();

/**
 * A suite's API answer, made once per kept copy of its data (suite-service.ts): checked and
 * serialized once, with the parts that change per request, the view count and the time,
 * appended at send time (see SplicedAnswer).
 */
export function suiteAnswer(kept: MusicInfo): SplicedAnswer {
  let answer = answers.get(kept);
  if (!answer) {
    const { views: _, ...data } = kept;
    const { data: _null, time: _time, ...head } = ok(null);
    const headJson = JSON.stringify(envelopeHead.encode(head));
    const dataJson = JSON.stringify(withoutViews.encode(data));
    answer = new SplicedAnswer(`${headJson.slice(0, -1)},"data":${dataJson.slice(0, -1)}`);
    answers.set(kept, answer);
  }
  return answer;
}

/** What follows `suiteAnswer`'s start: the count and the time, closing data and the envelope. */
export function suiteAnswerEnd(views: number, time = ok(null).time): string {
  return `,"views":${views}},"time":${time}}`;
}
