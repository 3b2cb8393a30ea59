import { ApiError } from '../kit/api-error.js';
import { pathOf } from '../kit/api-routes.js';
import type { OptionsResponse, StepDescription, TestRunRequest, TestRunResponse } from '../kit/api-types.js';
import { h, render, uniqueId } from '../kit/dom.js';
import { checkField } from '../kit/field-value.js';
import { type FormField, plainField } from '../kit/form-field.js';
import { type OptionsField, optionsField } from '../kit/options-field.js';
import { fieldsOf } from '../kit/schema-fields.js';
import { showTestResult } from '../kit/test-result-view.js';
import { ToolstepsElement } from '../kit/toolsteps-element.js';

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
    return this.#collect(false).input;
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

  /**
   * What a new drawing of the form keeps: everything for the same step and
   * account; for another account, all but its own choices (another account's
   * assignee is no choice of this one's).
   */
  #keptValues(step: string): Record<string, unknown> {
    if (this.#description?.id !== step) return {};
    const value = this.value;
    if ((this.getAttribute('connection') ?? '') === this.#drawnFor) return value;
    for (const field of this.#fields) {
      if (field.spec.options && !field.spec.options.fixed) delete value[field.spec.name];
    }
    return value;
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
    const writes = description.access !== 'read';
    const confirmId = uniqueId('confirm');
    this.#confirm = writes
      ? h(
          'div',
          { className: 'field confirm' },
          h('input', { id: confirmId, type: 'checkbox', name: '__confirm' }),
          ' ',
          h(
            'label',
            { htmlFor: confirmId, className: 'inline' },
            description.access === 'destructive'
              ? 'Let this test really delete in the account'
              : 'Let this test really write to the account',
          ),
        )
      : h('div');
    render(
      this.#form,
      this.#fields.map((field) => this.#withVariables(field)),
      this.#confirm,
      h('button', { type: 'submit', className: 'primary', part: 'test' }, 'Test step'),
    );
    for (const field of this.#fields) {
      field.element.addEventListener('change', () => this.#onFieldChange(field));
      field.element.addEventListener('input', () => this.#changed());
    }
    for (const field of this.#fields) if ('refill' in field) void (field as OptionsField).refill();
  }

  /** A field with a "Insert variable into …" dropdown beside it, when the workflow has variables. */
  #withVariables(field: FormField): HTMLElement {
    const names = Object.keys(this.#variables);
    if (!names.length || !field.insertVariable) return field.element;
    const picker = h(
      'select',
      {
        part: 'insert-variable',
        'aria-label': `Insert variable into ${field.spec.title}`,
        className: 'insert-variable',
        onchange: (event: Event) => {
          const select = event.target as HTMLSelectElement;
          if (select.value) field.insertVariable!(select.value);
          select.value = '';
        },
      },
      h('option', { value: '' }, 'Insert variable…'),
      names.map((name) => h('option', { value: name }, `{{${name}}}`)),
    );
    field.element.append(picker);
    return field.element;
  }

  #loadOptions(field: string, request: { query?: string; cursor?: string }): Promise<OptionsResponse> {
    const connection = this.getAttribute('connection') || undefined;
    return this.requireClient().post<OptionsResponse>(
      pathOf('stepOptions', { stepId: this.#description!.id }),
      { field, connection, ...request, input: this.#collect(false).input },
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
    const { input, problems } = this.#collect(false);
    this.emit('toolsteps-change', { step: this.#description?.id, input, valid: problems === 0 });
  }

  /** The input from the fields; with `show`, each field's message is shown and the first bad one focused. */
  #collect(show: boolean): { input: Record<string, unknown>; problems: number } {
    const input: Record<string, unknown> = {};
    let problems = 0;
    for (const field of this.#fields) {
      const checked = checkField(field.spec, field.read());
      if (checked?.problem !== undefined) {
        if (show && ++problems === 1) field.focus();
        if (!show) problems += 1;
      } else if (checked) {
        input[field.spec.name] = checked.value;
      }
      if (show) field.setProblem(checked?.problem);
    }
    return { input, problems };
  }

  #onTest(event: Event): void {
    event.preventDefault();
    void this.test();
  }

  /** Runs the step once as a test with the form's input; resolves with the result, or undefined. */
  async test(): Promise<TestRunResponse | undefined> {
    const description = this.#description;
    if (!description) return undefined;
    const { input, problems } = this.#collect(true);
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
    const confirmWrite = (this.#confirm.querySelector('input') as HTMLInputElement | null)?.checked ?? false;
    if (description.access !== 'read' && !confirmWrite) {
      this.fail(new Error('This step changes the account: tick the box to let the test really run.'));
      (this.#confirm.querySelector('input') as HTMLInputElement).focus();
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
      this.#showServerProblems(error);
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

  /** The server's field messages (the same schema, checked again) beside their fields. */
  #showServerProblems(error: unknown): void {
    if (!(error instanceof ApiError)) return;
    for (const problem of error.fields) {
      const name = problem.path.replace(/^[/$.]*(input[/.])?/, '').split(/[/.[]/)[0];
      this.#fields.find((field) => field.spec.name === name)?.setProblem(problem.message);
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
