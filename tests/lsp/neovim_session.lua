-- Neovim (0.7: vim.lsp.start_client) as the language server's client, for
-- tests/lsp/test_neovim.py: run with `nvim --headless --clean -S neovim_session.lua`.
--
-- It opens the record NOTATION_RECORD, starts the server NOTATION_LSP_COMMAND (a JSON
-- list of words) on it, and once the server has published the buffer's diagnostics asks
-- for a hover at NOTATION_HOVER_AT and completions at NOTATION_COMPLETE_AT ("line:column",
-- 1-based, the column in characters, as the library counts them). What Neovim made of the
-- answers goes to NOTATION_OUTPUT as JSON, and Neovim quits:
--
--   diagnostics  as vim.diagnostic holds them: line, column (0-based, the column in bytes),
--                end_line, end_column, message, code, severity (1: error), href (the
--                rule's link)
--   hover        the hover's Markdown lines as Neovim would show them, joined by "\n"
--   completions  the labels of the completion items, in the order the server sent them
--   popup        the words Neovim's completion menu lists there (sorted and filtered
--                by what is typed before the cursor, as its omnifunc does)
--   server_exit  the server's exit code and signal: Neovim stops it (shutdown, exit)
--                and quits once it is gone, so the server is reaped, not orphaned
--
-- Each step waits on an event (the notification, a reply), never a clock or a poll: a
-- server that owes nothing leaves both processes asleep, which the test's hang breaker
-- (tests/lsp/stalls.py) sees as a stall. Any failure writes {"error": ...} instead and
-- quits with status 1.

local output = os.getenv("NOTATION_OUTPUT")
local over = false -- a result (or an error) is written: later events change nothing

local function write(result)
  local file = assert(io.open(output, "w"))
  file:write(vim.json.encode(result))
  file:close()
end

local function quit(command)
  -- (scheduled: an error can come from a fast callback, where no command may run)
  vim.schedule(function() vim.cmd(command) end)
end

local function fail(message)
  if over then
    return
  end
  over = true
  pcall(write, { error = tostring(message) })
  quit("cquit 1")
end

-- `work` run so that any error it raises is written out, not lost in Neovim's messages.
local function guarded(work)
  return function(...)
    if over then
      return
    end
    local ok, problem = xpcall(work, debug.traceback, ...)
    if not ok then
      fail(problem)
    end
  end
end

local function setting(name)
  local value = os.getenv(name)
  if value == nil or value == "" then
    error(name .. " is not set")
  end
  return value
end

local function place(name)
  local line, column = setting(name):match("^(%d+):(%d+)$")
  if line == nil then
    error(name .. " should be line:column, not " .. setting(name))
  end
  return tonumber(line), tonumber(column)
end

-- The LSP position of 1-based `line`, `column` (in characters) of buffer `buffer`.
local function position(buffer, line, column, encoding)
  local text = vim.api.nvim_buf_get_lines(buffer, line - 1, line, true)[1]
  local byte = vim.str_byteindex(text, column - 1)
  local character = byte
  if encoding == "utf-16" then
    character = select(2, vim.str_utfindex(text, byte))
  elseif encoding == "utf-32" then
    character = vim.str_utfindex(text, byte)
  end
  return { line = line - 1, character = character }, text:sub(1, byte)
end

local function start()
  local command = vim.json.decode(setting("NOTATION_LSP_COMMAND"))
  local record = setting("NOTATION_RECORD")
  local hover_line, hover_column = place("NOTATION_HOVER_AT")
  local complete_line, complete_column = place("NOTATION_COMPLETE_AT")
  setting("NOTATION_OUTPUT")

  vim.cmd("edit " .. vim.fn.fnameescape(record))
  local buffer = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(buffer)
  local result = {}
  local client
  local stopping = false -- everything asked: the server is told to stop

  local function completed(err, answer)
    if err then
      error("completion: " .. vim.inspect(err))
    end
    local items = vim.lsp.util.extract_completion_items(answer or {})
    result.completions = vim.tbl_map(function(item) return item.label end, items)
    local _, before = position(buffer, complete_line, complete_column, client.offset_encoding)
    local typed = before:sub(vim.fn.match(before, [[\k*$]]) + 1)
    local menu = vim.lsp.util.text_document_completion_list_to_complete_items(answer or {}, typed)
    result.popup = vim.tbl_map(function(entry) return entry.word end, menu)
    -- as Neovim leaves a server (shutdown, then exit), but waiting for it to be gone
    stopping = true
    client.stop()
  end

  local function hovered(err, answer)
    if err then
      error("hover: " .. vim.inspect(err))
    end
    if answer == nil or answer.contents == nil then
      result.hover = vim.NIL
    else
      local lines = vim.lsp.util.convert_input_to_markdown_lines(answer.contents)
      result.hover = table.concat(vim.lsp.util.trim_empty_lines(lines), "\n")
    end
    local at = position(buffer, complete_line, complete_column, client.offset_encoding)
    client.request("textDocument/completion", {
      textDocument = { uri = uri },
      position = at,
      context = { triggerKind = 1 }, -- (invoked, as by <C-x><C-o>)
    }, guarded(completed), buffer)
  end

  local function published(err, params, context, config)
    if vim.uri_to_bufnr(params.uri) ~= buffer or result.diagnostics ~= nil then
      return
    end
    -- Neovim's own handler first: what follows reads the diagnostics as it stored them
    vim.lsp.diagnostic.on_publish_diagnostics(err, params, context, config)
    local namespace = vim.lsp.diagnostic.get_namespace(context.client_id)
    result.diagnostics = {}
    for _, shown in ipairs(vim.diagnostic.get(buffer, { namespace = namespace })) do
      local lsp = (shown.user_data or {}).lsp or {}
      table.insert(result.diagnostics, {
        line = shown.lnum,
        column = shown.col,
        end_line = shown.end_lnum,
        end_column = shown.end_col,
        message = shown.message,
        code = shown.code == nil and vim.NIL or shown.code,
        severity = shown.severity,
        href = lsp.codeDescription and lsp.codeDescription.href or vim.NIL,
      })
    end
    client = vim.lsp.get_client_by_id(context.client_id)
    local at = position(buffer, hover_line, hover_column, client.offset_encoding)
    client.request("textDocument/hover", { textDocument = { uri = uri }, position = at },
                   guarded(hovered), buffer)
  end

  local id = vim.lsp.start_client({
    name = "notation",
    cmd = command,
    root_dir = vim.fn.fnamemodify(record, ":p:h"),
    handlers = { ["textDocument/publishDiagnostics"] = guarded(published) },
    on_exit = function(code, signal)
      if not stopping then
        fail(string.format("the server exited (code %s, signal %s) before the session ended",
                           code, signal))
        return
      end
      vim.schedule(guarded(function()
        result.server_exit = { code = code, signal = signal }
        write(result)
        over = true
        vim.cmd("qa!")
      end))
    end,
  })
  if id == nil then
    error("the server could not be started: " .. vim.inspect(command))
  end
  if not vim.lsp.buf_attach_client(buffer, id) then
    error("the client could not attach to " .. record)
  end
end

guarded(start)()
