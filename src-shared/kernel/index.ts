export { Kernel, KernelError, errorText, type ListenerFailure, type PluginStateChange } from './kernel'
export { Context, defineContextProperty, type Logger } from './context'
export { PluginRuntime, PluginConfigError, definePlugin, pluginName, type Plugin, type PluginObject, type PluginFunction, type PluginState } from './runtime'
export type * from './types'
