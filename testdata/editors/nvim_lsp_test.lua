-- Neovim's built-in LSP client drives gpl lsp on a copy of the default
-- scenario: a diagnostic's range and message, its quick fix, hover over
-- llama2_70b.mpg, inlay hints, a rename of a job, formatting. Run by
-- cmd/gpl/nvim_test.go as
--   nvim --headless -u NONE -i NONE -c 'luafile nvim_lsp_test.lua'
-- with GPL_LSP_CMD (the command, words split by spaces) and GPL_FILE (the
-- copy to edit) in the environment. Any mismatch exits 1 with a message on
-- standard error; all passing exits 0. Written for Neovim 0.7 and later.

local function fail(msg)
  io.stderr:write('nvim_lsp_test: ' .. msg .. '\n')
  vim.cmd('cquit 1')
end

local function check(cond, msg)
  if not cond then
    error(msg, 2)
  end
end

local function run()
  local file = assert(os.getenv('GPL_FILE'), 'GPL_FILE is not set')
  local cmd = vim.split(assert(os.getenv('GPL_LSP_CMD'), 'GPL_LSP_CMD is not set'), ' ', { trimempty = true })
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({
    name = 'gpl',
    cmd = cmd,
    root_dir = vim.fn.fnamemodify(file, ':h'),
    flags = { debounce_text_changes = 0 },
  })
  check(id, 'the client did not start')
  vim.lsp.buf_attach_client(buf, id)
  local client
  check(vim.wait(10000, function()
    client = vim.lsp.get_client_by_id(id)
    return client ~= nil and client.initialized ~= false and client.server_capabilities ~= nil
      and client.server_capabilities.hoverProvider == true
  end, 20), 'the server did not initialize')

  local uri = vim.uri_from_bufnr(buf)
  local function request(method, params)
    local res, err = client.request_sync(method, params, 10000, buf)
    check(res, method .. ': no response: ' .. tostring(err))
    check(res.err == nil, method .. ': ' .. vim.inspect(res.err))
    return res.result
  end
  local function at(line, character)
    return { textDocument = { uri = uri }, position = { line = line, character = character } }
  end
  local function lines() return vim.api.nvim_buf_get_lines(buf, 0, -1, false) end
  local function find(s)
    for i, l in ipairs(lines()) do
      local c = l:find(s, 1, true)
      if c then return i - 1, c - 1 end
    end
    error('not in the buffer: ' .. s, 2)
  end
  local function diagnostics(n)
    local ds
    check(vim.wait(10000, function()
      ds = vim.diagnostic.get(buf)
      return #ds == n
    end, 20), ('want %d diagnostics, have %s'):format(n, vim.inspect(vim.diagnostic.get(buf))))
    return ds
  end

  diagnostics(0)

  -- An error: the hours without their unit.
  local hl = find('hours = 720h')
  local hoursLine = lines()[hl + 1]
  vim.api.nvim_buf_set_lines(buf, hl, hl + 1, false, { (hoursLine:gsub('720h', '720', 1)) })
  -- The error, and the expects of the job that now cannot be evaluated.
  local d
  check(vim.wait(10000, function()
    for _, x in ipairs(vim.diagnostic.get(buf)) do
      if x.lnum == hl then d = x end
    end
    return d ~= nil
  end, 20), 'no diagnostic on line ' .. hl .. ': ' .. vim.inspect(vim.diagnostic.get(buf)))
  check(d.lnum == hl and d.col == 10 and d.end_lnum == hl and d.end_col == 13,
    ('diagnostic range %d:%d-%d:%d, want %d:10-%d:13'):format(d.lnum, d.col, d.end_lnum, d.end_col, hl, hl))
  check(d.message == 'hours is a duration; write its unit, e.g. 720h', 'diagnostic message: ' .. d.message)
  check(d.severity == vim.diagnostic.severity.ERROR, 'severity ' .. tostring(d.severity))

  -- Its quick fix.
  local actions = request('textDocument/codeAction', {
    textDocument = { uri = uri },
    range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } },
    context = { diagnostics = { d.user_data and d.user_data.lsp or {} } },
  })
  check(#actions == 1, 'code actions: ' .. vim.inspect(actions))
  check(actions[1].title == 'write 720h for 720', 'code action title: ' .. actions[1].title)
  vim.lsp.util.apply_workspace_edit(actions[1].edit, 'utf-16')
  check(lines()[hl + 1] == hoursLine, 'after the quick fix: ' .. lines()[hl + 1])
  diagnostics(0)

  -- Hover over llama2_70b.mpg, written on a new last line.
  vim.api.nvim_buf_set_lines(buf, -1, -1, false, { 'expect llama2_70b.mpg > 0.2' })
  diagnostics(0)
  local ml, mc = find('llama2_70b.mpg')
  local hover = request('textDocument/hover', at(ml, mc + 12))
  check(hover and hover.contents and hover.contents.value:find('llama2_70b.mpg = 0.28215', 1, true),
    'hover: ' .. vim.inspect(hover))

  -- Inlay hints: the let's value, the expects' outcomes, the job's mpg.
  local hints = request('textDocument/inlayHint', {
    textDocument = { uri = uri },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = #lines(), character = 0 } },
  })
  local labels = {}
  for _, h in ipairs(hints) do labels[h.position.line .. ':' .. h.label] = true end
  local pl = find('let peak_mfu')
  local jl = find('job llama2_70b on')
  check(labels[pl .. ':= 0.45'], 'no hint = 0.45 for peak_mfu: ' .. vim.inspect(hints))
  check(labels[ml .. ':✓ 0.28215'], 'no hint ✓ 0.28215 on the new expect: ' .. vim.inspect(hints))
  check(labels[jl .. ':mpg 0.28215 · cost_per_useful_hour $8.8605/h'], 'no hint of the job: ' .. vim.inspect(hints))

  -- Rename the job: every use changes.
  local function count(word)
    local n = 0
    for _, l in ipairs(lines()) do
      for _ in l:gmatch('%f[%w_]' .. word .. '%f[^%w_]') do n = n + 1 end
    end
    return n
  end
  local before = count('llama2_70b')
  check(before == 5, 'uses of llama2_70b before the rename: ' .. before)
  local _, jc = find('job llama2_70b on')
  local edit = request('textDocument/rename', vim.tbl_extend('force', at(jl, jc + 6), { newName = 'llama_base' }))
  vim.lsp.util.apply_workspace_edit(edit, 'utf-16')
  check(count('llama2_70b') == 0 and count('llama_base') == before,
    ('after the rename: %d llama2_70b, %d llama_base'):format(count('llama2_70b'), count('llama_base')))
  check(count('llama2_70b_tuned') == 3, 'the rename touched llama2_70b_tuned')
  diagnostics(0)
  local refused = client.request_sync('textDocument/rename', vim.tbl_extend('force', at(jl, jc + 6), { newName = 'llama2_70b_tuned' }), 10000, buf)
  check(refused and refused.err and refused.err.message:find('already declared', 1, true), 'a rename to a taken name: ' .. vim.inspect(refused))

  -- Formatting puts a mangled line back.
  local pool = find('pool shared_h100 {')
  vim.api.nvim_buf_set_lines(buf, pool, pool + 1, false, { 'pool    shared_h100{' })
  diagnostics(0)
  local edits = request('textDocument/formatting', { textDocument = { uri = uri }, options = { tabSize = 2, insertSpaces = true } })
  check(#edits >= 1, 'no formatting edits')
  vim.lsp.util.apply_text_edits(edits, buf, 'utf-16')
  check(lines()[pool + 1] == 'pool shared_h100 {', 'after formatting: ' .. lines()[pool + 1])
  diagnostics(0)

  client.stop()
  vim.wait(5000, function() return client.is_stopped() end, 20)
end

local ok, err = pcall(run)
if not ok then
  fail(tostring(err))
else
  io.stderr:write('nvim_lsp_test: ok\n')
  vim.cmd('qall!')
end
