// Vite's compile-time values (import.meta.env) and asset imports, as the renderer's bundler provides them.
/// <reference types="vite/client" />
