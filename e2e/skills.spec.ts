// Issue 29, skills: a project skill (`.claude/skills/<name>/SKILL.md` written by the test) is in the
// composer's `/` menu with its source; choosing it and sending gets the skill's message to the
// (fake) model; the settings page lists the skills with where they came from.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { lastUserText } from './support/fake-model'
import { expect, test } from './support/seam-test'
import { expectIdle, settingsSection, snap, ui } from './support/ui'

async function projectSkill(workspace: string): Promise<string> {
  const dir = join(workspace, '.claude', 'skills', 'deploy')
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'SKILL.md'), '---\ndescription: Deploy the app to an environment\nargument-hint: <env>\n---\nDeploy to $0 using ${CLAUDE_SKILL_DIR}/deploy.sh.\n')
  return dir
}

test('typing / lists a project skill with its source; choosing it and sending gets the skill to the model', async ({ app, fakeModel, workspace }, testInfo) => {
  const dir = await projectSkill(workspace)
  fakeModel.respond(() => ({ text: 'Deployed.' }))
  const box = ui.composer(app)
  await box.fill('/')
  const menu = app.getByRole('listbox', { name: 'Slash commands' })
  const deploy = menu.getByRole('option', { name: /\/deploy <env> Deploy the app to an environment \(skill: project \.claude\/skills\)/ })
  await expect(deploy).toBeVisible()
  await snap(app, testInfo, 'slash-menu-skill')
  await box.pressSequentially('dep')
  await box.press('Enter')
  await expect(box).toHaveValue('/deploy ')
  await box.pressSequentially('staging')
  await box.press('Enter')
  await expect(ui.assistantMessages(app).last()).toContainText('Deployed.')
  await expectIdle(app)
  const sent = lastUserText(fakeModel.chatRequests().at(-1)!.body)
  expect(sent).toContain(`<command-name>/deploy</command-name>\n<command-args>staging</command-args>\nBase directory for this skill: ${dir}\n\nDeploy to staging using ${dir}/deploy.sh.`)
  await expect(ui.userMessages(app).last().locator('.msg-text').first()).toHaveText('/deploy staging')
})

test('the settings page lists the skills with their source', async ({ app, workspace }) => {
  await projectSkill(workspace)
  const skills = (await settingsSection(app, 'Skills')).getByRole('list', { name: 'Skills' })
  await expect(skills.getByRole('listitem')).toHaveCount(1)
  await expect(skills.getByRole('listitem').first()).toContainText('/deploy <env> (project .claude/skills)')
  await expect(skills.getByRole('listitem').first()).toContainText('Deploy the app to an environment')
})
