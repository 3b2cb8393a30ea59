/** Job data that is JSON already: a queue made by `serializedJobQueue` stores its text as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * BullMQ's Queue, whose jobs take `JsonText` data without serialising it
 * again: BullMQ stores a job's data as `JSON.stringify(data)`, and the
 * intake has the event's JSON already (it prints the same line), so the
 * event is serialised once. Other data is stored as BullMQ stores it. A
 * worker reads either alike: the stored text is the same JSON.
 */
export function serializedJobQueue(
  bullmq: Pick<typeof import('bullmq'), 'Queue' | 'Job'>,
): typeof import('bullmq').Queue {
  class SerializedJob extends bullmq.Job {
    override asJSON() {
      const data: unknown = this.data;
      if (!(data instanceof JsonText)) return super.asJSON();
      // BullMQ's own fields, with the data left out of its serialisation and put in as the text it is.
      this.data = undefined;
      try {
        return { ...super.asJSON(), data: data.text };
      } finally {
        this.data = data;
      }
    }
  }
  return class SerializedJobQueue extends bullmq.Queue {
    protected override get Job(): typeof import('bullmq').Job {
      // A subclass of BullMQ's Job; its generic constructor signature is what TypeScript cannot follow.
      return SerializedJob as unknown as typeof import('bullmq').Job;
    }
  };
}
