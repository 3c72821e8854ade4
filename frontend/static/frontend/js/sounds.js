// Short sounds made on the spot with the Web Audio API (no sound files): a card laid down,
// a deal, a completed sequence, a win, a refusal. Off unless the player turns them on.
let context = null;
let enabled = false;

export function setSounds(on) {
  enabled = Boolean(on);
}

function audio() {
  if (!enabled || typeof AudioContext === "undefined") return null;
  context = context || new AudioContext();
  if (context.state === "suspended") context.resume();
  return context;
}

// A click of card on felt: a burst of filtered noise that dies away fast.
function tap(ctx, at, loud = 0.35) {
  const length = Math.floor(ctx.sampleRate * 0.05);
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  filter.Q.value = 0.8;
  const gain = ctx.createGain();
  gain.gain.value = loud;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(at);
}

function tone(ctx, at, frequency, length, { type = "triangle", loud = 0.18 } = {}) {
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.frequency.value = frequency;
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0, at);
  gain.gain.linearRampToValueAtTime(loud, at + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

const SOUNDS = {
  move: (ctx, t) => tap(ctx, t),
  deal: (ctx, t) => { for (let i = 0; i < 8; i++) tap(ctx, t + i * 0.045, 0.25); },
  sequence: (ctx, t) => [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => tone(ctx, t + i * 0.07, f, 0.22)),
  win: (ctx, t) => [523.25, 659.25, 783.99, 1046.5, 783.99, 1046.5, 1318.5]
    .forEach((f, i) => tone(ctx, t + i * 0.11, f, i === 6 ? 0.7 : 0.25, { loud: 0.2 })),
  refused: (ctx, t) => tone(ctx, t, 170, 0.14, { type: "square", loud: 0.05 }),
};

export function play(name) {
  const ctx = audio();
  if (ctx && SOUNDS[name]) SOUNDS[name](ctx, ctx.currentTime + 0.01);
}

// What a new session document sounds like after the one before it.
export function cue(before, after, token) {
  if (!before || !token) return;
  if (after.view.won && !before.view.won) play("win");
  else if ((after.view.removed || []).length > (before.view.removed || []).length) play("sequence");
  else if (token === "D") play("deal");
  else play("move");
}
