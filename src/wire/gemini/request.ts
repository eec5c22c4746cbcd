// generateContent requests, both directions. The model and the streaming switch live in the URL on
// this wire, so parsing takes them from the context. Function calls may lack ids here: calls get
// positional ids and each response is paired with the earliest unanswered call of the same name;
// on the way out, results are keyed by the tool name this wire requires, looked up by call id.
// Both proto JSON spellings (camelCase and snake_case) are read, as the vendor accepts both.
import type {
  CanonicalRequest,
  ContentPart,
  Message,
  ResponseFormat,
  Result,
  ToolChoice,
  ToolDef,
  ToolResultPart,
} from '../../core/canonical/types.ts';
import type { ParseContext, UpstreamRequest } from '../types.ts';
import { reasoningPart, signatureFor } from '../reasoning.ts';
import { argsToObject, objectToArgs, safeJson, toolNameFor } from '../util.ts';
import {
  arr,
  bad,
  guard,
  isObj,
  obj,
  oneOf,
  optArr,
  optNum,
  optObj,
  optStr,
  str,
  type Obj,
} from '../validate.ts';

const snake = (k: string): string => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** Read a proto field under either JSON spelling. */
export const field = (o: Obj, camel: string): unknown => (o[camel] !== undefined ? o[camel] : o[snake(camel)]);

export const modelPath = (model: string, stream: boolean): string =>
  `/v1beta/models/${encodeURIComponent(stripModelsPrefix(model))}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;

export const stripModelsPrefix = (model: string): string => (model.startsWith('models/') ? model.slice(7) : model);

export function parseRequest(body: unknown, ctx: ParseContext = {}): Result<CanonicalRequest> {
  return guard(() => parse(obj(body, 'body'), ctx));
}

const PART_KINDS = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse'] as const;

/**
 * The kind of a part the canonical call has a place for, or null for one it has none
 * (`executableCode`, `codeExecutionResult`, a bare `thoughtSignature`…): dropped when translating,
 * sent as it came on the vendor-prefixed proxy (D19).
 */
function partKind(p: Obj, at: string): (typeof PART_KINDS)[number] | null {
  for (const k of PART_KINDS) if (field(p, k) !== undefined) return k;
  if (Object.keys(p).length === 0) bad(at, 'a part with text, inlineData, fileData, functionCall or functionResponse');
  return null;
}

/** Inline text (a `text/*` or JSON file given as data) read as text; other data has no equivalent. */
function inlineText(mime: string, data: string): string | null {
  if (!mime.startsWith('text/') && mime !== 'application/json') return null;
  return Buffer.from(data, 'base64').toString('utf8');
}

function parse(b: Obj, ctx: ParseContext): CanonicalRequest {
  const contents = arr(b.contents, 'contents');
  if (contents.length === 0) bad('contents', 'a non-empty array');
  const messages: Message[] = [];
  /** Calls not yet answered, oldest first, for responses that carry only a name. */
  const pending: Array<{ id: string; name: string }> = [];

  contents.forEach((raw, i) => {
    const at = `contents[${i}]`;
    const c = obj(raw, at);
    const role = c.role === undefined || c.role === null || c.role === '' ? 'user' : oneOf(c.role, `${at}.role`, ['user', 'model', 'function'] as const);
    const parts = arr(c.parts, `${at}.parts`);
    if (role === 'model') {
      const content: ContentPart[] = [];
      // Thought parts and the turn's thoughtSignature (on whichever part carries it) become one
      // reasoning part at the turn's start.
      const thoughts: string[] = [];
      let signature: string | undefined;
      parts.forEach((rp, j) => {
        const pat = `${at}.parts[${j}]`;
        const p = obj(rp, pat);
        signature ??= optStr(field(p, 'thoughtSignature'), `${pat}.thoughtSignature`) || undefined;
        const kind = partKind(p, pat);
        if (kind === 'text') {
          if (p.thought === true) {
            thoughts.push(str(p.text, `${pat}.text`));
            return;
          }
          content.push({ type: 'text', text: str(p.text, `${pat}.text`) });
        } else if (kind === 'functionCall') {
          const fc = obj(field(p, 'functionCall'), `${pat}.functionCall`);
          const name = str(fc.name, `${pat}.functionCall.name`);
          const id = optStr(fc.id, `${pat}.functionCall.id`) ?? `call_${i}_${j}`;
          pending.push({ id, name });
          content.push({ type: 'tool_call', id, name, arguments: objectToArgs(optObj(fc.args, `${pat}.functionCall.args`) ?? {}) });
        }
        // Other parts in a model turn (files, code execution) have no canonical equivalent.
      });
      if (thoughts.length > 0 || signature !== undefined) content.unshift(reasoningPart(thoughts.join(''), signature, 'gemini'));
      messages.push({ role: 'assistant', content });
      return;
    }
    const results: ContentPart[] = [];
    const rest: ContentPart[] = [];
    parts.forEach((rp, j) => {
      const pat = `${at}.parts[${j}]`;
      const p = obj(rp, pat);
      const kind = partKind(p, pat);
      switch (kind) {
        case null:
          return;
        case 'text':
          if (p.thought !== true) rest.push({ type: 'text', text: str(p.text, `${pat}.text`) });
          return;
        case 'inlineData': {
          const d = obj(field(p, 'inlineData'), `${pat}.inlineData`);
          const mime = str(field(d, 'mimeType'), `${pat}.inlineData.mimeType`);
          const data = str(d.data, `${pat}.inlineData.data`);
          if (mime.startsWith('image/')) rest.push({ type: 'image', mediaType: mime, data });
          else {
            // Audio, video, PDF: no canonical equivalent (dropped); text files become text.
            const text = inlineText(mime, data);
            if (text !== null) rest.push({ type: 'text', text });
          }
          return;
        }
        case 'fileData': {
          const d = obj(field(p, 'fileData'), `${pat}.fileData`);
          const mime = optStr(field(d, 'mimeType'), `${pat}.fileData.mimeType`) ?? 'image/jpeg';
          const uri = str(field(d, 'fileUri'), `${pat}.fileData.fileUri`);
          if (mime.startsWith('image/')) rest.push({ type: 'image', mediaType: mime, url: uri });
          return;
        }
        case 'functionResponse': {
          const fr = obj(field(p, 'functionResponse'), `${pat}.functionResponse`);
          const name = str(fr.name, `${pat}.functionResponse.name`);
          let id = optStr(fr.id, `${pat}.functionResponse.id`);
          const k = id !== undefined ? pending.findIndex((c) => c.id === id) : pending.findIndex((c) => c.name === name);
          if (k >= 0) {
            id ??= pending[k].id;
            pending.splice(k, 1);
          }
          results.push(toolResult(id ?? `call_${i}_${j}`, name, optObj(fr.response, `${pat}.functionResponse.response`)));
          return;
        }
        case 'functionCall':
          return; // a call belongs to a model turn; Gemini answers it elsewhere, nothing to translate
      }
    });
    if (results.length > 0) messages.push({ role: 'tool', content: results });
    if (rest.length > 0 || results.length === 0) messages.push({ role: 'user', content: rest });
  });

  // Parts of kinds with no canonical equivalent are dropped; a request left with nothing to send
  // is refused here, in the client's shape, rather than by the upstream after admission.
  if (messages.every((m) => m.content.length === 0)) bad('contents', 'at least one part with text, inlineData, fileData, functionCall or functionResponse');
  const req: CanonicalRequest = {
    shape: 'gemini',
    model: stripModelsPrefix(ctx.model ?? (typeof b.model === 'string' ? b.model : '')),
    messages,
    stream: ctx.stream ?? false,
  };

  const si = field(b, 'systemInstruction');
  if (si !== undefined && si !== null) {
    if (typeof si === 'string') req.system = si;
    else {
      const parts = arr(obj(si, 'systemInstruction').parts, 'systemInstruction.parts');
      req.system = parts
        .map((p, j) => optStr(obj(p, `systemInstruction.parts[${j}]`).text, `systemInstruction.parts[${j}].text`) ?? '')
        .filter((t) => t !== '')
        .join('\n\n');
    }
  }

  const tools = optArr(b.tools, 'tools');
  if (tools) {
    const defs: ToolDef[] = [];
    tools.forEach((rt, i) => {
      const t = obj(rt, `tools[${i}]`);
      // Tools Google runs itself (googleSearch, codeExecution, urlContext…) are dropped (D19).
      if (field(t, 'functionDeclarations') === undefined) return;
      const decls = arr(field(t, 'functionDeclarations'), `tools[${i}].functionDeclarations`);
      decls.forEach((rd, j) => defs.push(functionDeclaration(rd, `tools[${i}].functionDeclarations[${j}]`)));
    });
    if (defs.length > 0) req.tools = defs;
  }

  const tc = optObj(field(b, 'toolConfig'), 'toolConfig');
  const fcc = tc ? optObj(field(tc, 'functionCallingConfig'), 'toolConfig.functionCallingConfig') : undefined;
  if (fcc && fcc.mode !== undefined) {
    const mode = oneOf(fcc.mode, 'toolConfig.functionCallingConfig.mode', ['AUTO', 'ANY', 'NONE', 'VALIDATED', 'MODE_UNSPECIFIED'] as const);
    const allowed = optArr(field(fcc, 'allowedFunctionNames'), 'toolConfig.functionCallingConfig.allowedFunctionNames')?.map((n, k) =>
      str(n, `toolConfig.functionCallingConfig.allowedFunctionNames[${k}]`),
    );
    let choice: ToolChoice = 'auto';
    if (mode === 'NONE') choice = 'none';
    else if (mode === 'ANY') choice = allowed && allowed.length === 1 ? { name: allowed[0] } : 'required';
    req.toolChoice = choice;
  }

  const gc = optObj(field(b, 'generationConfig'), 'generationConfig');
  if (gc) generationConfig(gc, req);
  return req;
}

function toolResult(id: string, name: string, response: Obj | undefined): ToolResultPart {
  const part: ToolResultPart = { type: 'tool_result', toolCallId: id, name, content: '' };
  const r = response ?? {};
  const keys = Object.keys(r);
  if (keys.length === 1 && keys[0] === 'error') {
    part.isError = true;
    part.content = typeof r.error === 'string' ? r.error : JSON.stringify(r.error);
  } else if (keys.length === 1 && (keys[0] === 'result' || keys[0] === 'output') && typeof r[keys[0]] === 'string') {
    part.content = r[keys[0]] as string;
  } else {
    part.content = JSON.stringify(r);
  }
  return part;
}

function functionDeclaration(raw: unknown, at: string): ToolDef {
  const d = obj(raw, at);
  const def: ToolDef = { name: str(d.name, `${at}.name`), parameters: { type: 'object', properties: {} } };
  const description = optStr(d.description, `${at}.description`);
  if (description !== undefined) def.description = description;
  const js = optObj(field(d, 'parametersJsonSchema'), `${at}.parametersJsonSchema`);
  const os = optObj(d.parameters, `${at}.parameters`);
  if (js) def.parameters = openApiToJsonSchema(js);
  else if (os) def.parameters = openApiToJsonSchema(os);
  return def;
}

function generationConfig(gc: Obj, req: CanonicalRequest): void {
  const maxTokens = optNum(field(gc, 'maxOutputTokens'), 'generationConfig.maxOutputTokens', { int: true, min: 1 });
  if (maxTokens !== undefined) req.maxTokens = maxTokens;
  const temperature = optNum(gc.temperature, 'generationConfig.temperature', { min: 0, max: 2 });
  if (temperature !== undefined) req.temperature = temperature;
  const topP = optNum(field(gc, 'topP'), 'generationConfig.topP', { min: 0, max: 1 });
  if (topP !== undefined) req.topP = topP;
  optNum(field(gc, 'topK'), 'generationConfig.topK', { min: 0 });
  const thinking = optObj(field(gc, 'thinkingConfig'), 'generationConfig.thinkingConfig');
  if (thinking) {
    const budget = field(thinking, 'thinkingBudget');
    if (field(thinking, 'includeThoughts') === true) req.reasoning = { visible: true };
    else if ((typeof budget === 'number' && budget !== 0) || field(thinking, 'thinkingLevel') !== undefined) req.reasoning = { visible: false };
  }
  const cc = optNum(field(gc, 'candidateCount'), 'generationConfig.candidateCount', { int: true, min: 1 });
  if (cc !== undefined && cc > 1) req.candidates = cc;
  const stop = optArr(field(gc, 'stopSequences'), 'generationConfig.stopSequences');
  if (stop && stop.length > 0) req.stop = stop.map((s, k) => str(s, `generationConfig.stopSequences[${k}]`));

  const mime = optStr(field(gc, 'responseMimeType'), 'generationConfig.responseMimeType');
  // Other types (`text/x.enum`) have no canonical equivalent: the answer is plain text (D19).
  if (mime !== undefined && mime !== 'application/json') return;
  const jsonSchema = optObj(field(gc, 'responseJsonSchema'), 'generationConfig.responseJsonSchema');
  const apiSchema = optObj(field(gc, 'responseSchema'), 'generationConfig.responseSchema');
  let rf: ResponseFormat | undefined;
  // Gemini CLI spells types upper-case even in `responseJsonSchema`, which Gemini accepts.
  if (jsonSchema) rf = { type: 'json_schema', schema: openApiToJsonSchema(jsonSchema) };
  else if (apiSchema) rf = { type: 'json_schema', schema: openApiToJsonSchema(apiSchema) };
  else if (mime === 'application/json') rf = { type: 'json' };
  if (rf) req.responseFormat = rf;
}

/**
 * The wire's older `parameters`/`responseSchema` use an OpenAPI subset (upper-case types,
 * `nullable`); canonical schemas are JSON Schema.
 */
export function openApiToJsonSchema(s: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'nullable' || k === 'propertyOrdering') continue;
    if (k === 'type' && typeof v === 'string') out.type = v.toLowerCase();
    else if (k === 'properties' && isObj(v)) {
      out.properties = Object.fromEntries(Object.entries(v).map(([pk, pv]) => [pk, isObj(pv) ? openApiToJsonSchema(pv) : pv]));
    } else if (k === 'items' && isObj(v)) out.items = openApiToJsonSchema(v);
    else if ((k === 'anyOf' || k === 'oneOf' || k === 'allOf') && Array.isArray(v)) {
      out[k] = v.map((x) => (isObj(x) ? openApiToJsonSchema(x) : x));
    } else out[k] = v;
  }
  if (s.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

// ---- canonical → upstream body ----

export function buildUpstreamRequest(req: CanonicalRequest, upstreamModel: string): UpstreamRequest {
  const contents: Array<{ role: string; parts: Obj[] }> = [];
  req.messages.forEach((m, i) => {
    // This vendor's own thought signature goes back on the turn's first function call (which
    // must carry it), else on its thought part.
    let signature: string | undefined;
    for (const p of m.content) if (p.type === 'reasoning') signature ??= signatureFor(p, 'gemini');
    const signedCall = signature !== undefined && m.content.some((p) => p.type === 'tool_call');
    const parts = m.content.flatMap((p): Obj[] => {
      switch (p.type) {
        case 'reasoning': {
          if (signedCall) return p.text === '' ? [] : [{ text: p.text, thought: true }];
          const own = signatureFor(p, 'gemini');
          if (own === undefined) return [];
          return [{ text: p.text, thought: true, thoughtSignature: own }];
        }
        case 'text':
          return p.text === '' ? [] : [{ text: p.text }];
        case 'image':
          return [
            p.data !== undefined
              ? { inlineData: { mimeType: p.mediaType, data: p.data } }
              : { fileData: { mimeType: p.mediaType, fileUri: p.url ?? '' } },
          ];
        case 'tool_call': {
          const part: Obj = { functionCall: { id: p.id, name: p.name, args: argsToObject(p.arguments) } };
          if (signedCall && signature !== undefined) {
            part.thoughtSignature = signature;
            signature = undefined;
          }
          return [part];
        }
        case 'tool_result':
          return [
            {
              functionResponse: {
                id: p.toolCallId,
                name: p.name ?? toolNameFor(req.messages, i, p.toolCallId) ?? p.toolCallId,
                response: resultToResponse(p),
              },
            },
          ];
      }
    });
    if (parts.length === 0) return;
    const role = m.role === 'assistant' ? 'model' : 'user';
    const last = contents[contents.length - 1];
    if (last && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  });

  const body: Obj = { contents };
  if (req.system !== undefined) body.systemInstruction = { parts: [{ text: req.system }] };
  if (req.tools && req.tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: req.tools.map((t) => ({
          name: t.name,
          ...(t.description !== undefined ? { description: t.description } : {}),
          parametersJsonSchema: t.parameters,
        })),
      },
    ];
  }
  const tc = req.toolChoice;
  if (tc !== undefined) {
    body.toolConfig = {
      functionCallingConfig:
        tc === 'auto'
          ? { mode: 'AUTO' }
          : tc === 'none'
            ? { mode: 'NONE' }
            : tc === 'required'
              ? { mode: 'ANY' }
              : { mode: 'ANY', allowedFunctionNames: [tc.name] },
    };
  }
  const gc: Obj = {};
  if (req.maxTokens !== undefined) gc.maxOutputTokens = req.maxTokens;
  if (req.temperature !== undefined) gc.temperature = req.temperature;
  if (req.topP !== undefined) gc.topP = req.topP;
  if (req.stop && req.stop.length > 0) gc.stopSequences = req.stop;
  if (req.responseFormat?.type === 'json' || req.responseFormat?.type === 'json_schema') gc.responseMimeType = 'application/json';
  if (req.responseFormat?.type === 'json_schema') gc.responseJsonSchema = req.responseFormat.schema;
  // Thinking models think by default; the thoughts' text comes back only when asked for.
  if (req.reasoning?.visible) gc.thinkingConfig = { includeThoughts: true };
  if (Object.keys(gc).length > 0) body.generationConfig = gc;
  return { path: modelPath(upstreamModel, req.stream), body, stream: req.stream };
}

/** This wire carries a result as an object: JSON objects go as they are, anything else wrapped. */
function resultToResponse(p: ToolResultPart): Obj {
  if (p.isError) return { error: p.content };
  const v = safeJson(p.content);
  // An object that would read back as an error or a wrapped result is wrapped itself, so every
  // content string survives the round trip.
  if (isObj(v)) {
    const keys = Object.keys(v);
    const ambiguous = keys.length === 1 && (keys[0] === 'error' || keys[0] === 'result' || keys[0] === 'output');
    if (!ambiguous) return v;
  }
  return { result: p.content };
}
