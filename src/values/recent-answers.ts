/**
 * The answers to the last `capacity` distinct questions, for work that
 * always answers a question the same way while its owner lives (a search
 * over a catalogue that has not changed): a question asked again is
 * answered from here. Once full, the question asked first goes, so a
 * stream of distinct questions cannot grow it (a Map keeps insertion
 * order, so the oldest is the first key).
 */
export class RecentAnswers<Answer> {
  private readonly answers = new Map<string, Answer>();

  constructor(private readonly capacity: number) {}

  /** The answer to `question`: the one kept, else `answer()`'s, kept for the next ask. */
  get(question: string, answer: () => Answer): Answer {
    const known = this.answers.get(question);
    if (known !== undefined) return known;
    const made = answer();
    if (this.answers.size >= this.capacity) this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(question, made);
    return made;
  }
}
