/**
 * Evaluation of agents on the provider twins (issue 44): scenarios, the
 * runner, agents, checks and reports. Provider-neutral: the twins are
 * reached through the sandbox's control endpoints, and `toolsteps/sandbox`
 * supplies the built-in ones (`sandboxTwins`).
 */

export type { AiSdkAgentOptions } from './ai-sdk-agent.js';
export { aiSdkAgent } from './ai-sdk-agent.js';
export type { AnthropicAgentOptions, AnthropicMessagesClient } from './anthropic-agent.js';
export { anthropicAgent } from './anthropic-agent.js';
export type { CheckResult } from './check-results.js';
export { commandAgent } from './command-agent.js';
export type { AgentAnswer, EvalAgent, EvalSession, OfferedTool } from './eval-agent.js';
export { agentFromFunction } from './eval-agent.js';
export type { ArmedFault } from './fault-arming.js';
export { htmlReport } from './html-report.js';
export { junitReport } from './junit-report.js';
export type { OpenAIChatAgentOptions, OpenAIChatClient } from './openai-chat-agent.js';
export { openaiChatAgent } from './openai-chat-agent.js';
export type { RecordedCall } from './recorded-call.js';
export type { RunEvaluationOptions } from './run-evaluation.js';
export { runEvaluation, writeReports } from './run-evaluation.js';
export type { RunScenarioOptions } from './run-scenario.js';
export { runScenario } from './run-scenario.js';
export type { ScenarioInput } from './scenario.js';
export { Scenario } from './scenario.js';
export { ScenarioFault } from './scenario-fault.js';
export { loadScenarioFile, parseScenario } from './scenario-file.js';
export { SCENARIO_SCHEMA_ID, scenarioJsonSchema } from './scenario-json-schema.js';
export type { EvalReport, RunResult, ScenarioResult } from './scenario-result.js';
export type { ScriptedCall } from './scripted-agent.js';
export { ScriptFile, scriptedAgent, scriptedAgentOf } from './scripted-agent.js';
export type { Twins } from './twins.js';
