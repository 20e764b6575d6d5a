// The clientInfo Seam sends in initialize: its name and the version of the install.
export { SEAM_VERSION as SEAM_CLIENT_VERSION } from '@seam/sdk/node'
