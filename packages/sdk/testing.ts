// `@seam/sdk/testing`: what a plugin's tests need to run it on the real loop: the agent, the
// tool pipeline, the built-in tools, the session store, the system prompt, and a scripted model
// (the one model double: it replays scripted replies and records every request).
export { Agent, type AgentOptions, type AgentSettingsInput, type SendResult } from '../../src-main/agent'
export { promptPlugin } from '../../src-main/agent/system-prompt'
export { createLoopFixture, type LoopFixture } from '../../src-main/agent/loop-fixture'
export { buildModelRequest } from '../../src-main/agent/step'
export { toolsPlugin } from '../../src-main/tools'
export { builtinTools } from '../../src-main/tools/builtin'
export { SessionStore, type SessionLog } from '../../src-main/session/store'
export { ScriptedModel, type RecordedRequest, type Script, type ScriptStep, type ScriptedReply, type ScriptedCall } from '../../test-support/scripted-model'
export { createTestHost, type TestHost, type TestHostOptions, type TestedPlugin } from './harness'
// The whole Host without a transport (as `seam run` drives it), and the terminal's approval
// answerer, for tests that need everything: settings, patch layers, installed bundles.
export { HostRuntime, type HostOptions } from '../../src-main/app/runtime'
export { terminalApprovalPlugin, type ApproveMode } from '../../src-main/cli/terminal-approval'
// Process liveness checks for tests that prove a plugin's processes end.
export { isAlive, scaledTestMs, testTimeFactor, waitFor, waitUntilDead, writtenPid } from '../../src-main/process/liveness'
// The whole host on a temp home and workspace with a loopback OpenAI-protocol server as its model.
export { startLoopbackHost, type LoopbackHost, type LoopbackHostOptions, type LoopbackModelServer } from './loopback-host'
