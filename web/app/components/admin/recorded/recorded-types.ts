import type { Extraction, RecordedAnswerView, ReplayAnswer, ReplayRow, TrialAnswerView } from "@contracts/recorded";

/** Types of the back office's samples (types only: no zod reaches the browser). */
export type RecordedAnswer = RecordedAnswerView;
export type TrialAnswer = TrialAnswerView;
export type Replay = ReplayAnswer;
export type ReplayLine = ReplayRow;
export type Reading = Extraction;
export type Staged = { versionId: number; version: string; current: string };
export type RecordedList = { answers: RecordedAnswer[]; limits: { count: number; bytes: number }; sources: { source: string; count: number; bytes: number }[] };

export const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} B`);
export const mono = { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", fontSize: 12 } as const;
