/**
 * The first run, when the wallet file does not exist yet: a new wallet (its 24 seed words shown once, then three of
 * them picked back to show they were written down) or one restored from its words, and the wallet file's password.
 */
import { useState } from 'preact/hooks';
import { failure, post } from './api.js';
import { Failure } from './parts.js';

/** How many of the words the person picks back. */
const CHECKED_WORDS = 3;
const CHOICES = 4;

const shuffled = <T,>(items: T[]): T[] =>
  items
    .map((item) => ({ item, key: crypto.getRandomValues(new Uint32Array(1))[0]! }))
    .sort((a, b) => a.key - b.key)
    .map(({ item }) => item);

/** Positions to check, each with the right word among others of the list. */
function wordQuiz(words: string[]): { position: number; choices: string[] }[] {
  const positions = shuffled(words.map((_, i) => i))
    .slice(0, CHECKED_WORDS)
    .sort((a, b) => a - b);
  return positions.map((position) => {
    const others = shuffled(words.filter((word) => word !== words[position])).slice(0, CHOICES - 1);
    return { position, choices: shuffled([words[position]!, ...others]) };
  });
}

function PasswordFields({ onSubmit, action }: { onSubmit: (password: string) => Promise<void>; action: string }) {
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState('');
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (password !== repeat) return setError('the two passwords differ');
    setError('');
    try {
      await onSubmit(password);
    } catch (reason) {
      setError(failure(reason));
    }
  };
  return (
    <form onSubmit={submit} class="password">
      <label for="setup-password">Wallet password (at least 8 characters)</label>
      <input
        id="setup-password"
        type="password"
        autocomplete="new-password"
        value={password}
        onInput={(e) => setPassword(e.currentTarget.value)}
        required
      />
      <label for="setup-repeat">Repeat the password</label>
      <input
        id="setup-repeat"
        type="password"
        autocomplete="new-password"
        value={repeat}
        onInput={(e) => setRepeat(e.currentTarget.value)}
        required
      />
      <button type="submit">{action}</button>
      {error && <Failure message={error} />}
    </form>
  );
}

function CreateWallet({ done }: { done: () => void }) {
  const [words, setWords] = useState<string[]>();
  const [quiz, setQuiz] = useState<{ position: number; choices: string[] }[]>();
  const [picked, setPicked] = useState<Record<number, string>>({});
  const [error, setError] = useState('');
  if (!words)
    return (
      <>
        <button
          type="button"
          onClick={() =>
            void post<{ words: string[] }>('setup/words').then(
              (w) => setWords(w.words),
              (e: unknown) => setError(failure(e)),
            )
          }
        >
          Show my new seed words
        </button>
        {error && <Failure message={error} />}
      </>
    );
  if (!quiz)
    return (
      <section aria-labelledby="words-title">
        <h3 id="words-title">Your 24 seed words</h3>
        <p>
          Write them down, in order, and keep them private: they restore the wallet, and anyone who has them controls
          the funds. They are shown this once.
        </p>
        <ol class="seed">
          {words.map((word, i) => (
            <li key={i}>{word}</li>
          ))}
        </ol>
        <button type="button" onClick={() => setQuiz(wordQuiz(words))}>
          I wrote them down
        </button>
      </section>
    );
  const confirmed = quiz.every(({ position }) => picked[position] === words[position]);
  return (
    <section aria-labelledby="quiz-title">
      <h3 id="quiz-title">Pick the words you wrote down</h3>
      {quiz.map(({ position, choices }) => (
        <fieldset key={position} class="quiz">
          <legend>Word {position + 1}</legend>
          {choices.map((choice) => (
            <button
              key={choice}
              type="button"
              class={picked[position] === choice ? '' : 'secondary'}
              aria-pressed={picked[position] === choice}
              onClick={() => setPicked({ ...picked, [position]: choice })}
            >
              {choice}
            </button>
          ))}
        </fieldset>
      ))}
      {Object.keys(picked).length === quiz.length && !confirmed && (
        <Failure message="A word does not match: look at what you wrote down again." />
      )}
      {confirmed && (
        <PasswordFields
          action="Create the wallet"
          onSubmit={(password) => post('setup/create', { password }).then(done)}
        />
      )}
    </section>
  );
}

function RestoreWallet({ done }: { done: () => void }) {
  const [words, setWords] = useState('');
  return (
    <section aria-labelledby="restore-title">
      <h3 id="restore-title">Restore from seed words</h3>
      <label for="restore-words">The 24 seed words, in order</label>
      <textarea
        id="restore-words"
        rows={4}
        value={words}
        onInput={(e) => setWords(e.currentTarget.value)}
        autocomplete="off"
        spellcheck={false}
      />
      <PasswordFields
        action="Restore the wallet"
        onSubmit={(password) => post('setup/restore', { words, password }).then(done)}
      />
    </section>
  );
}

export function SetupScreen({ network, done }: { network: string; done: () => void }) {
  const [mode, setMode] = useState<'create' | 'restore'>();
  return (
    <main class="setup" aria-label="New wallet">
      <h1>Umbra wallet</h1>
      <p>There is no wallet file yet: create a new {network} wallet, or restore one from its seed words.</p>
      <fieldset class="actions choice">
        <legend>New wallet</legend>
        <button
          type="button"
          class={mode === 'create' ? '' : 'secondary'}
          aria-pressed={mode === 'create'}
          onClick={() => setMode('create')}
        >
          Create a new wallet
        </button>
        <button
          type="button"
          class={mode === 'restore' ? '' : 'secondary'}
          aria-pressed={mode === 'restore'}
          onClick={() => setMode('restore')}
        >
          Restore from seed words
        </button>
      </fieldset>
      {mode === 'create' && <CreateWallet done={done} />}
      {mode === 'restore' && <RestoreWallet done={done} />}
    </main>
  );
}
