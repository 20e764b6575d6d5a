// The desktop app's identity, shared by the installers (packaging/electron-builder.config.mjs
// `appId`) and the running app: on Windows `app.setAppUserModelId` must name the same ID as the
// Start-menu shortcut the NSIS installer creates, or notifications show no app and do not come back
// to it when clicked.
export const APP_ID = 'dev.seam.desktop'
export const PRODUCT_NAME = 'Seam'
