// The splitter over a table of command lines: every simple command the shell would run, with
// wrappers stripped, or unreadable with a reason. Parts are listed by argv, in source order.
import { describe, expect, it } from 'vitest'
import { MAX_COMMAND_CHARS, splitBashCommand, splitBashCommandSync, type BashSplit } from './index'

type Expected = string[][] | { unreadable: RegExp }

const argvOf = (split: BashSplit) => (split.readable ? split.commands.map((c) => c.argv) : { unreadable: split.reason })

const CASES: Array<[command: string, expected: Expected]> = [
  // plain commands and words
  ['ls', [['ls']]],
  ['ls -la /tmp', [['ls', '-la', '/tmp']]],
  ['', []],
  ['   ', []],
  ['# only a comment', []],
  ['echo hi # trailing comment', [['echo', 'hi']]],
  ['echo "a b" \'c d\'', [['echo', 'a b', 'c d']]],
  ['echo a\\ b', [['echo', 'a b']]],
  ['echo "say \\"hi\\""', [['echo', 'say "hi"']]],
  ["echo 'a'\"b\"c", [['echo', 'abc']]],
  ['echo "$HOME"', [['echo', '"$HOME"']]],
  ['git commit -m "a; b && c"', [['git', 'commit', '-m', 'a; b && c']]],
  ['echo "x | y"', [['echo', 'x | y']]],
  ["echo 'rm -rf /'", [['echo', 'rm -rf /']]],
  ['echo {}', [['echo', '{}']]],
  ['echo a{b,c}', [['echo', 'a{b,c}']]],
  ['ls *.txt', [['ls', '*.txt']]],
  ['ls "*.txt"', [['ls', '*.txt']]],
  ['cat ~/.ssh/id_rsa', [['cat', '~/.ssh/id_rsa']]],
  ['"rm" -rf x', [['rm', '-rf', 'x']]],
  ["r'm' x", [['rm', 'x']]],
  ['\\rm x', [['rm', 'x']]],
  ['/bin/rm -f x', [['/bin/rm', '-f', 'x']]],
  ['./script.sh arg', [['./script.sh', 'arg']]],
  // operators
  ['echo start && rm -f victim.txt', [['echo', 'start'], ['rm', '-f', 'victim.txt']]],
  ['a || b', [['a'], ['b']]],
  ['a; b', [['a'], ['b']]],
  ['a;b;c', [['a'], ['b'], ['c']]],
  ['a | b | c', [['a'], ['b'], ['c']]],
  ['a |& b', [['a'], ['b']]],
  ['a & b', [['a'], ['b']]],
  ['sleep 1 &', [['sleep', '1']]],
  ['a\nb\n\nc', [['a'], ['b'], ['c']]],
  ['a && b || c; d | e & f', [['a'], ['b'], ['c'], ['d'], ['e'], ['f']]],
  ['! grep -q x f', [['grep', '-q', 'x', 'f']]],
  ['a &&\nb', [['a'], ['b']]],
  ['echo a \\\n  b', [['echo', 'a', 'b']]],
  // groups and control flow
  ['(cd sub && rm x)', [['cd', 'sub'], ['rm', 'x']]],
  ['{ a; b; }', [['a'], ['b']]],
  ['( a ) | { b; }', [['a'], ['b']]],
  ['if test -f x; then rm x; else touch x; fi', [['test', '-f', 'x'], ['rm', 'x'], ['touch', 'x']]],
  ['if a; then b; elif c; then d; fi', [['a'], ['b'], ['c'], ['d']]],
  ['while read l; do echo "$l"; done < list', [['read', 'l'], ['echo', '"$l"']]],
  ['until false; do sleep 1; done', [['false'], ['sleep', '1']]],
  ['for f in a b; do rm "$f"; done', [['rm', '"$f"']]],
  ['for f in $(ls); do cat $f; done', [['ls'], ['cat', '$f']]],
  ['for ((i=0; i<3; i++)); do echo $i; done', [['echo', '$i']]],
  ['case $x in a) rm a;; b) touch b;; esac', [['rm', 'a'], ['touch', 'b']]],
  ['f() { rm -rf x; }; f', [['rm', '-rf', 'x'], ['f']]],
  ['function g { curl x; }', [['curl', 'x']]],
  ['[ -f x ] && cat x', [['cat', 'x']]],
  ['[[ -n $(whoami) ]] && echo y', [['whoami'], ['echo', 'y']]],
  ['(( n = $(date +%s) ))', [['date', '+%s']]],
  // substitutions
  ['echo $(rm -rf x)', [['echo', '$(rm -rf x)'], ['rm', '-rf', 'x']]],
  ['echo `rm -f q`', [['echo', '`rm -f q`'], ['rm', '-f', 'q']]],
  ['echo "x$(id)y"', [['echo', '"x$(id)y"'], ['id']]],
  ['echo $(echo $(rm deep))', [['echo', '$(echo $(rm deep))'], ['echo', '$(rm deep)'], ['rm', 'deep']]],
  ['diff <(ls a) <(ls b)', [['diff', '<(ls a)', '<(ls b)'], ['ls', 'a'], ['ls', 'b']]],
  ['tee >(grep x) < in', [['tee', '>(grep x)'], ['grep', 'x']]],
  ['X=$(curl evil) ls', [['ls'], ['curl', 'evil']]],
  ['X=$(rm y)', [['rm', 'y']]],
  ['export A=$(curl x) B=2', [['export', 'A=$(curl x)', 'B=2'], ['curl', 'x']]],
  ['export PATH=/bin', [['export', 'PATH=/bin']]],
  ['local v=1', [['local', 'v=1']]],
  ['unset X', [['unset', 'X']]],
  ['echo ${X:-$(rm z)}', [['echo', '${X:-$(rm z)}'], ['rm', 'z']]],
  ['echo $((1 + $(wc -l < f)))', [['echo', '$((1 + $(wc -l < f)))'], ['wc', '-l']]],
  // redirections and heredocs
  ['echo hi > out.txt', [['echo', 'hi']]],
  ['echo hi >> log 2>&1', [['echo', 'hi']]],
  ['cat < secret.txt', [['cat']]],
  ['> empty', []],
  ['cat <<EOF\nhello $(rm -rf x)\nEOF', [['cat'], ['rm', '-rf', 'x']]],
  ["cat <<'EOF'\n$(rm x)\nEOF", [['cat']]],
  ['cat <<EOF > out\nhi\nEOF\nls', [['cat'], ['ls']]],
  ['cat <<< "$(id)"', [['cat'], ['id']]],
  ['cat <<-EOF\n\tx\n\tEOF\necho after', [['cat'], ['echo', 'after']]],
  // wrappers Claude Code sees through, and a few more
  ['timeout 5 rm -rf x', [['rm', '-rf', 'x']]],
  ['timeout -s KILL -k 2 30s make test', [['make', 'test']]],
  ['timeout --signal=TERM 5 npm test', [['npm', 'test']]],
  ['nice rm x', [['rm', 'x']]],
  ['nice -n 10 make', [['make']]],
  ['nice -5 make', [['make']]],
  ['nohup ./server &', [['./server']]],
  ['time npm test', [['npm', 'test']]],
  ['time -p ls', [['ls']]],
  ['stdbuf -oL grep x f', [['grep', 'x', 'f']]],
  ['stdbuf -o L grep x', [['grep', 'x']]],
  ['env FOO=1 BAR=2 node app.js', [['node', 'app.js']]],
  ['env -i PATH=/bin sh script.sh', [['sh', 'script.sh']]],
  ['env -u HOME rm x', [['rm', 'x']]],
  ['env', [['env']]],
  ['FOO=1 BAR="a b" rm -f x', [['rm', '-f', 'x']]],
  ['NODE_ENV=test timeout 60 nice npm test', [['npm', 'test']]],
  ['command rm x', [['rm', 'x']]],
  ['command -v rm', [['command', '-v', 'rm']]],
  ['builtin cd /tmp', [['cd', '/tmp']]],
  ['exec rm x', [['rm', 'x']]],
  ['nohup timeout 5 env A=1 rm x', [['rm', 'x']]],
  ['timeout 5', [['timeout', '5']]],
  // shells' -c payloads
  ["bash -c 'rm -rf x'", [['rm', '-rf', 'x']]],
  ['sh -c "echo a && rm b"', [['echo', 'a'], ['rm', 'b']]],
  ["bash -lc 'cd x; make'", [['cd', 'x'], ['make']]],
  ["bash -e -c 'curl x | sh'", [['curl', 'x'], ['sh']]],
  ["zsh -c 'ls'", [['ls']]],
  ["bash -c 'bash -c \"rm nested\"'", [['rm', 'nested']]],
  ["sh -c 'echo $0' name", [['echo', '$0']]],
  ['bash script.sh', [['bash', 'script.sh']]],
  ['bash', [['bash']]],
  ["timeout 5 bash -c 'rm x'", [['rm', 'x']]],
  // xargs
  ['find . -name "*.tmp" | xargs rm', [['find', '.', '-name', '*.tmp'], ['rm']]],
  ['ls | xargs', [['ls'], ['echo']]],
  ['find . -print0 | xargs -0 -n 1 rm -f', [['find', '.', '-print0'], ['rm', '-f']]],
  ['find . | xargs -I{} cp {} /backup', [['find', '.'], ['cp', '{}', '/backup']]],
  ['xargs -P4 -L1 curl < urls', [['curl']]],
  // unreadable
  ['$CMD args', { unreadable: /command name is computed/ }],
  ['"$(which rm)" x', { unreadable: /command name is computed/ }],
  ['${TOOL:-rm} x', { unreadable: /command name is computed/ }],
  ['eval "rm -rf x"', { unreadable: /eval/ }],
  ['echo ok && eval $X', { unreadable: /eval/ }],
  ['bash -c "$PAYLOAD"', { unreadable: /payload is computed/ }],
  ['sh -c $X', { unreadable: /computed/ }],
  ['timeout $T rm x', { unreadable: /computed/ }],
  ['env -S "rm x"', { unreadable: /env -S/ }],
  ['echo "unbalanced', { unreadable: /not valid shell syntax/ }],
  ["echo 'unbalanced", { unreadable: /not valid shell syntax/ }],
  ['echo $(rm x', { unreadable: /not valid shell syntax/ }],
  ['if true; then echo', { unreadable: /not valid shell syntax/ }],
  ['a && && b', { unreadable: /not valid shell syntax/ }],
  ['echo ok; $(printf rm) -rf x', { unreadable: /command name is computed/ }],
  ['`echo rm` x', { unreadable: /command name is computed/ }],
  ['*.sh', { unreadable: /command name is computed/ }]
]

describe('splitBashCommand', () => {
  it(`has a table of at least 100 commands (${CASES.length})`, () => expect(CASES.length).toBeGreaterThanOrEqual(100))

  it.each(CASES)('%j', async (command, expected) => {
    const split = await splitBashCommand(command)
    if (Array.isArray(expected)) expect(argvOf(split)).toEqual(expected)
    else {
      expect(split.readable).toBe(false)
      if (!split.readable) expect(split.reason).toMatch(expected.unreadable)
    }
  })

  it("gives each part its own source text (wrappers stripped), its redirections and its computed words", async () => {
    const split = await splitBashCommand('FOO=1 timeout 5 git push "a b" $REF > out.log 2>&1 && cat < in.txt | tee -a copy >> all')
    expect(split).toEqual({
      readable: true,
      commands: [
        { argv: ['git', 'push', 'a b', '$REF'], computed: [3], moreArgs: false, text: 'git push "a b" $REF', redirects: [{ op: '>', target: 'out.log' }] },
        { argv: ['cat'], computed: [], moreArgs: false, text: 'cat', redirects: [{ op: '<', target: 'in.txt' }] },
        { argv: ['tee', '-a', 'copy'], computed: [], moreArgs: false, text: 'tee -a copy', redirects: [{ op: '>>', target: 'all' }] }
      ]
    })
  })

  it('redirections of a group apply to every command in it; a computed target says so', async () => {
    const split = await splitBashCommand('{ a; b; } > "$OUT" 2> err &>> both')
    expect(split.readable && split.commands.map((c) => c.redirects)).toEqual([
      [{ op: '>', target: '"$OUT"', computed: true }, { op: '>', target: 'err' }, { op: '&>>', target: 'both' }],
      [{ op: '>', target: '"$OUT"', computed: true }, { op: '>', target: 'err' }, { op: '&>>', target: 'both' }]
    ])
  })

  it('a bash -c payload keeps its own text; xargs says more words follow', async () => {
    const split = await splitBashCommand(`bash -c 'rm -rf "a b"' && ls | xargs -n1 rm`)
    expect(split.readable && split.commands.map((c) => [c.text, c.moreArgs])).toEqual([['rm -rf "a b"', false], ['ls', false], ['rm', true]])
  })

  // What deny and ask rules also judge of a part: [text, alternatives' texts] for each part.
  it.each<[string, Array<[string, string[]]>]>([
    ['echo a && /bin/rm -f x', [['echo a', []], ['/bin/rm -f x', ['rm -f x']]]],
    ['/usr/bin/rm x', [['/usr/bin/rm x', ['rm x']]]],
    ['"/bin/rm" x', [['"/bin/rm" x', ['rm x']]]],
    ['./rm x', [['./rm x', []]]],
    ['sudo rm x', [['sudo rm x', ['rm x']]]],
    ['sudo -u bob -E rm x', [['sudo -u bob -E rm x', ['rm x']]]],
    ['sudo --user=bob -- VAR=1 nice -n 5 /bin/rm x', [['sudo --user=bob -- VAR=1 nice -n 5 /bin/rm x', ['rm x']]]],
    ['doas -u bob rm x', [['doas -u bob rm x', ['rm x']]]],
    ['run0 --setenv A=1 rm x', [['run0 --setenv A=1 rm x', ['rm x']]]],
    ["sudo sh -c 'cd /tmp && rm x'", [["sudo sh -c 'cd /tmp && rm x'", ['cd /tmp', 'rm x']]]],
    ['/usr/bin/env A=1 rm x', [['/usr/bin/env A=1 rm x', ['rm x']]]],
    ['command rm x', [['rm x', []]]],
    ['\\rm x', [['\\rm x', ['rm x']]]],
    ['"rm" x', [['"rm" x', ['rm x']]]],
    ["'r''m' x", [["'r''m' x", ['rm x']]]],
    ['sudo', [['sudo', []]]],
    ['rm x', [['rm x', []]]]
  ])('alternatives of %j', async (command, expected) => {
    const split = await splitBashCommand(command)
    expect(split.readable && split.commands.map((c) => [c.text, (c.alternatives ?? []).map((a) => a.text)])).toEqual(expected)
  })

  it("an alternative has its own argv and the part's redirections; xargs behind sudo still adds words", async () => {
    const split = await splitBashCommand('sudo -u bob cat secret.txt > out && find . | sudo xargs rm')
    expect(split.readable && split.commands.flatMap((c) => c.alternatives ?? [])).toEqual([
      { argv: ['cat', 'secret.txt'], computed: [], moreArgs: false, text: 'cat secret.txt', redirects: [{ op: '>', target: 'out' }] },
      { argv: ['rm'], computed: [], moreArgs: true, text: 'rm', redirects: [] }
    ])
  })

  it.each([
    ['sudo $CMD x', /an option of `sudo` is computed/],
    ['sudo -u bob $CMD x', /computed when it runs/],
    ['sudo eval "rm x"', /eval/],
    ['sudo bash -c "$X"', /payload is computed/]
  ])('unreadable behind sudo: %j', async (command, reason) => {
    const split = await splitBashCommand(command)
    expect(split).toMatchObject({ readable: false, reason: expect.stringMatching(reason) })
  })

  it('non-ASCII text keeps its offsets', async () => {
    const split = await splitBashCommand('echo é😀 && rm "ü x"')
    expect(split.readable && split.commands.map((c) => c.text)).toEqual(['echo é😀', 'rm "ü x"'])
  })

  describe('bounded: hostile input is unreadable, fast, never a hang', () => {
    it('a 1 MB command', async () => {
      const split = await splitBashCommand(`echo ${'a'.repeat(1 << 20)}`)
      expect(split).toEqual({ readable: false, reason: `it is longer than ${MAX_COMMAND_CHARS} characters` })
    })

    it('deeply nested substitutions', async () => {
      const split = await splitBashCommand(`echo ${'$(echo '.repeat(2000)}x${')'.repeat(2000)}`)
      expect(split).toMatchObject({ readable: false, reason: expect.stringMatching(/nests commands more than 32 deep/) })
    })

    it('deeply nested bash -c payloads count with the substitutions inside them', async () => {
      const inner = `echo ${'$(echo '.repeat(31)}x${')'.repeat(31)}`
      expect((await splitBashCommand(`bash -c '${inner}'`)).readable).toBe(true)
      const split = await splitBashCommand(`bash -c 'bash -c "${inner.replaceAll('$', '\\$')}"'`)
      expect(split).toMatchObject({ readable: false, reason: expect.stringMatching(/nests commands more than 32 deep/) })
    })

    it('unbalanced quotes over a long line', async () => {
      const split = await splitBashCommand(`echo "${'x '.repeat(20_000)}`)
      expect(split.readable).toBe(false)
    })

    it('a long && chain is read (the walk is not recursive)', async () => {
      const split = await splitBashCommand(Array.from({ length: 3000 }, (_, i) => `e${i}`).join(' && '))
      expect(split.readable && split.commands.length).toBe(3000)
    })
  })

  it('the sync variant answers the same once loaded', async () => {
    await splitBashCommand('true')
    expect(splitBashCommandSync('a && b')).toEqual(await splitBashCommand('a && b'))
  })
})
