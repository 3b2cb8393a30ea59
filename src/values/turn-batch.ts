interface Waiting<In, Out> {
  input: In;
  settle: (output: Out) => void;
  fail: (error: unknown) => void;
}

/**
 * Calls made within one turn of the event loop, run together: every `add`
 * of a turn waits for one call of `run` with all their inputs, made once
 * the turn's I/O callbacks are done (`setImmediate`), and gets its own
 * output back (`run` answers one per input, in order). A `run` that fails
 * fails every call of its batch. Deliveries that arrive together share one
 * round trip to a store instead of one each; a call alone waits no longer
 * than the rest of its turn.
 */
export class TurnBatch<In, Out> {
  private waiting: Waiting<In, Out>[] = [];

  constructor(private readonly run: (inputs: In[]) => Promise<readonly Out[]>) {}

  add(input: In): Promise<Out> {
    return new Promise<Out>((settle, fail) => {
      if (this.waiting.push({ input, settle, fail }) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.waiting;
    this.waiting = [];
    (async () => this.run(batch.map((item) => item.input)))().then(
      (outputs) => {
        for (let index = 0; index < batch.length; index += 1) {
          (batch[index] as Waiting<In, Out>).settle(outputs[index] as Out);
        }
      },
      (error: unknown) => {
        for (const item of batch) item.fail(error);
      },
    );
  }
}
