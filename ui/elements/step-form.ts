import { ApiError } from '../client/api-error.js';
import { pathOf } from '../client/api-routes.js';
import type {
  OptionsResponse,
  StepDescription,
  TestRunRequest,
  TestRunResponse,
} from '../client/api-types.js';
import { h, render } from '../dom/dom.js';
import { ToolstepsElement } from '../dom/toolsteps-element.js';
import { checkField } from '../forms/field-value.js';
import { type FormField, plainField } from '../forms/form-field.js';
import { collectInput } from '../forms/form-input.js';
import { keptOnRedraw } from '../forms/kept-values.js';
import { type OptionsField, optionsField } from '../forms/options-field.js';
import { fieldsOf } from '../forms/schema-fields.js';
import { showServerProblems } from '../forms/server-problems.js';
import { withVariablePicker } from '../forms/variable-insert.js';
import { confirmationBox, writeConfirmation } from '../forms/write-confirmation.js';
import { showTestResult } from '../views/test-result-view.js';

/**
 * `<toolsteps-step-form step="ticketing.create_ticket" connection="...">`:
 * the step's input form, generated from its JSON Schema as the chosen
 * account has it (custom fields typed), with dropdowns of the account's
 * choices, workflow variables to insert, inline messages from the same
 * schema, and "Test step" with its "Test result".
 *
 * Properties: `variables` (workflow variable name to sample value: offered
 * for insertion, and filled in on a test), `mapping` (variable name to
 * JSONPath, sent with a test), `value` (the input).
 * While it loads a step's form it carries `aria-busy="true"`.
 * Events: `toolsteps-change` ({ step, input, valid }), `toolsteps-loaded`
 * ({ step: StepDescription }), `toolsteps-test-result` ({ ok, result?, error? }).
 * Parts: `field`, `label`, `control`, `hint`, `problem`, `test`, `result`.
 */
export class ToolstepsStepForm extends ToolstepsElement {
  static readonly tag = 'toolsteps-step-form';
  static readonly observedAttributes = ['step', 'connection'];
  #fields: FormField[] = [];
  #description: StepDescription | undefined;
  #form!: HTMLFormElement;
  #title!: HTMLElement;
  #result!: HTMLElement;
  #confirm!: HTMLElement;
  #variables: Record<string, unknown> = {};
  #loading = new AbortController();
  /** The account the form was last drawn for. */
  #drawnFor = '';
  /** Variable name to JSONPath over the output; sent with a test, replacing the step's defaults. */
  mapping: Record<string, string> | undefined;

  get description(): StepDescription | undefined {
    return this.#description;
  }

  get variables(): Record<string, unknown> {
    return this.#variables;
  }

  set variables(samples: Record<string, unknown>) {
    this.#variables = { ...samples };
    if (this.#description) this.#render(this.value);
  }

  /** The input as the step would get it; fields that do not fit are left out. */
  get value(): Record<string, unknown> {
    return collectInput(this.#fields, false).input;
  }

  set value(input: Record<string, unknown>) {
    for (const field of this.#fields) field.write(input[field.spec.name]);
  }

  /** Redraws the form when its step or connection attribute changes. */
  attributeChangedCallback(): void {
    if (this.#form && this.client) this.refresh();
  }

  protected override setup(): void {
    this.#title = h('h3', { part: 'heading' });
    this.#form = h('form', { part: 'form', noValidate: true, onsubmit: (e: Event) => this.#onTest(e) });
    this.#result = h('section', {
      part: 'result',
      'aria-label': 'Test result',
      className: 'result',
      tabIndex: -1,
    });
    this.#confirm = h('div');
    render(this.body, this.#title, this.#form, this.#result);
  }

  protected override refresh(): void {
    const step = this.getAttribute('step');
    if (!step) return;
    this.#loading.abort();
    this.#loading = new AbortController();
    const signal = this.#loading.signal;
    const kept = this.#keptValues(step);
    // Busy until the form for this step and account is shown: assistive technology, and tests, wait for it.
    this.setAttribute('aria-busy', 'true');
    void this.attempt(async () => {
      const connection = this.getAttribute('connection') || undefined;
      const description = await this.requireClient().get<StepDescription>(
        pathOf('describeStep', { stepId: step }),
        { connection },
        signal,
      );
      this.#description = description;
      this.#render(kept);
      this.say(connection ? '' : 'Choose an account to fill the account’s own fields and choices.');
      this.emit('toolsteps-loaded', { step: description });
    }).finally(() => {
      if (!signal.aborted) this.removeAttribute('aria-busy');
    });
  }

  /** What a new drawing of the form keeps: nothing for another step; for another account, not its choices. */
  #keptValues(step: string): Record<string, unknown> {
    if (this.#description?.id !== step) return {};
    return keptOnRedraw(this.#fields, this.value, (this.getAttribute('connection') ?? '') === this.#drawnFor);
  }

  #render(kept: Record<string, unknown>): void {
    const description = this.#description!;
    this.#title.textContent = description.title;
    const connection = this.getAttribute('connection') ?? '';
    this.#drawnFor = connection;
    this.#fields = fieldsOf(description.input).map((spec) =>
      spec.options && (connection || spec.options.fixed)
        ? optionsField(
            spec,
            (request) => this.#loadOptions(spec.name, request),
            (error) => this.fail(error),
          )
        : plainField(spec),
    );
    for (const field of this.#fields) field.write(kept[field.spec.name]);
    this.#confirm = writeConfirmation(description.access);
    render(
      this.#form,
      this.#fields.map((field) => withVariablePicker(field, Object.keys(this.#variables))),
      this.#confirm,
      h('button', { type: 'submit', className: 'primary', part: 'test' }, 'Test step'),
    );
    for (const field of this.#fields) {
      field.element.addEventListener('change', () => this.#onFieldChange(field));
      field.element.addEventListener('input', () => this.#changed());
    }
    for (const field of this.#fields) if ('refill' in field) void (field as OptionsField).refill();
  }

  #loadOptions(field: string, request: { query?: string; cursor?: string }): Promise<OptionsResponse> {
    const connection = this.getAttribute('connection') || undefined;
    return this.requireClient().post<OptionsResponse>(
      pathOf('stepOptions', { stepId: this.#description!.id }),
      { field, connection, ...request, input: collectInput(this.#fields, false).input },
    );
  }

  #onFieldChange(field: FormField): void {
    const checked = checkField(field.spec, field.read());
    field.setProblem(checked?.problem);
    // Fields whose choices depend on this one load them again.
    for (const other of this.#fields) {
      if (other.spec.options?.dependsOn.includes(field.spec.name) && 'reload' in other) {
        void (other as OptionsField).reload();
      }
    }
    this.#changed();
  }

  #changed(): void {
    const { input, problems } = collectInput(this.#fields, false);
    this.emit('toolsteps-change', { step: this.#description?.id, input, valid: problems === 0 });
  }

  #onTest(event: Event): void {
    event.preventDefault();
    void this.test();
  }

  /** Runs the step once as a test with the form's input; resolves with the result, or undefined. */
  async test(): Promise<TestRunResponse | undefined> {
    const description = this.#description;
    if (!description) return undefined;
    const { input, problems } = collectInput(this.#fields, true);
    if (problems) {
      this.fail(
        new Error(
          `${problems} field${problems === 1 ? '' : 's'} need${problems === 1 ? 's' : ''} a change before the test.`,
        ),
      );
      return undefined;
    }
    const connection = this.getAttribute('connection');
    if (!connection) {
      this.fail(new Error('Choose a connection before testing the step.'));
      return undefined;
    }
    const confirmWrite = confirmationBox(this.#confirm)?.checked ?? false;
    if (description.access !== 'read' && !confirmWrite) {
      this.fail(new Error('This step changes the account: tick the box to let the test really run.'));
      confirmationBox(this.#confirm)?.focus();
      return undefined;
    }
    const request: TestRunRequest = {
      connection,
      input,
      samples: this.#variables,
      ...(this.mapping ? { mapping: this.mapping, replaceVariables: true } : {}),
      confirmWrite,
    };
    this.say('Testing…');
    try {
      const result = await this.requireClient().post<TestRunResponse>(
        pathOf('testStep', { stepId: description.id }),
        request,
      );
      showTestResult(this.#result, result);
      this.say('Test finished.');
      this.emit('toolsteps-test-result', { ok: true, result });
      return result;
    } catch (error) {
      showServerProblems(this.#fields, error);
      showTestResult(this.#result, undefined, error);
      this.fail(error);
      this.emit('toolsteps-test-result', {
        ok: false,
        error:
          error instanceof ApiError
            ? { code: error.code, message: error.message, needsReconnect: error.needsReconnect }
            : { code: 'error', message: (error as Error).message },
      });
      return undefined;
    }
  }

  protected override styles(): string {
    return `
      h3 { margin: 0 0 var(--_gap); font-size: 1.1em; }
      .required { color: var(--_danger); }
      .confirm label.inline { display: inline; font-weight: 400; }
      .confirm input { width: auto; }
      .insert-variable { width: auto; margin-top: 4px; font-size: .9em; }
      .options-tools { margin-top: 4px; }
      .result:empty { display: none; }
      .result { margin-top: var(--_gap); }
    `;
  }
}
