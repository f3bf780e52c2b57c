"""The Textual screen every game shares: keys, status panel, hints, auto-solve, saving.

A game's app subclasses `GameApp` and supplies its board widget, how a key direction
becomes a move, and the solve task; everything else - undo/redo, the clock, hints from a
background solver with a progress line and Esc to cancel, the animated solution at an
adjustable speed, save/load prompts, the autosave on quit and the offer to resume it -
lives here once.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer, Header, Input, Label, Static

from ..errors import InputError
from .runner import Plan, SolverRunner
from .saves import SaveData, autosave_path, read_save, remove_autosave, write_save
from .session import GameSession, format_time

SPEEDS = (0.03, 0.06, 0.12, 0.25, 0.5, 1.0)  # seconds per move of an animated solution


class TextPrompt(ModalScreen[str | None]):
    """Ask for a line of text, e.g. a file name (Enter accepts, Esc cancels)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    TextPrompt { align: center middle; }
    TextPrompt > Vertical { width: 70; height: auto; border: round $accent; padding: 1 2; background: $surface; }
    """

    def __init__(self, title: str, default: str):
        super().__init__()
        self.title_text, self.default = title, default

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text)
            yield Input(value=self.default, id="path")
            yield Label("[dim]Enter: OK   Esc: cancel[/dim]")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class Confirm(ModalScreen[bool]):
    """A yes/no question (y / n, Enter = yes, Esc = no)."""

    BINDINGS = [Binding("y,enter", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]
    DEFAULT_CSS = """
    Confirm { align: center middle; }
    Confirm > Vertical { width: 64; height: auto; border: round $accent; padding: 1 2; background: $surface; }
    """

    def __init__(self, question: str):
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question)
            yield Label("[b]y[/b]es / [b]n[/b]o")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class GameApp(App):
    """Shared play screen; subclasses set ``session`` and implement the hooks below."""

    CSS = """
    #main { height: 1fr; }
    #board-box { width: 1fr; align: center middle; }
    #side { width: 34; padding: 1 1; border-left: solid $panel; }
    #solver { height: auto; color: $warning; }
    #message { height: auto; min-height: 1; padding: 0 1; }
    """
    BINDINGS = [
        Binding("up,k", "direction('up')", "Up", show=False),
        Binding("down,j", "direction('down')", "Down", show=False),
        Binding("left,h", "direction('left')", "Left", show=False),
        Binding("right,l", "direction('right')", "Right", show=False),
        Binding("u", "undo", "Undo"),
        Binding("ctrl+r,U", "redo", "Redo"),
        Binding("R", "restart", "Restart"),
        Binding("question_mark", "hint", "Hint"),
        Binding("g", "solve", "Give up"),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("plus,equals_sign", "speed(-1)", "Faster", show=False),
        Binding("minus", "speed(1)", "Slower", show=False),
        Binding("s", "save", "Save"),
        Binding("o", "load", "Load"),
        Binding("q", "quit_game", "Quit"),
    ]

    game_title = "searchkit"

    def __init__(
        self,
        session: GameSession,
        *,
        save_path: str | Path | None = None,
        resume: SaveData | None = None,
        autosave: bool = True,
    ):
        super().__init__()
        self.session = session
        self.save_path = Path(save_path) if save_path else None
        self.resume = resume
        self.autosave = autosave
        self.stopped_by: int | None = None  # the signal that ended the game, if one did
        self.runner = SolverRunner()
        self.runner_mode = ""  # "hint" or "solve"
        self.plan: Plan | None = None
        self.speed = 2
        self._animation: Timer | None = None
        self._animating_by_solver = False
        self._generation = 0  # bumped when the game is replaced: late solver answers are dropped
        self._solve_generation = 0
        self.message = ""

    # -- hooks for the games -----------------------------------------------------------------
    def make_board(self) -> Widget:
        raise NotImplementedError

    def move_for(self, direction: str) -> str | None:
        """The move that a key pointing ``direction`` makes (None: no move)."""
        raise NotImplementedError

    def describe_game(self) -> str:
        """Rich-markup lines about the game (size, level ...) for the side panel."""
        return ""

    def counters(self) -> str:
        return f"Moves  [b]{self.session.moves}[/b]"

    def describe_move(self, move: str) -> str:
        """A hint's text for ``move``."""
        return move

    def after_move(self, move: str) -> None:
        """Called after every move the player or the animation makes (e.g. deadlock notes)."""

    def solved_message(self) -> str:
        s = self.session
        extra = f", {s.hints} hint{'s' * (s.hints != 1)}" if s.hints else ""
        return f"Solved in {s.moves} moves ({format_time(s.clock.elapsed)}{extra})!"

    # -- layout --------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        self._panels: dict[str, Static] = {}
        yield Header(show_clock=False)
        with Horizontal(id="main"):
            with Vertical(id="board-box"):
                self.board = self.make_board()
                yield self.board
            with Vertical(id="side"):
                yield self._panels.setdefault("#info", Static(id="info"))
                yield self._panels.setdefault("#solver", Static(id="solver"))
        yield self._panels.setdefault("#message", Static(self.message, id="message"))
        yield Footer()

    def play(self) -> None:
        """Run the game until it ends; a SIGTERM or SIGHUP (a closed terminal window, a
        ``timeout``) ends it like a quit - autosave, terminal restored by Textual's own
        shutdown - and the process then exits with 128 + the signal's number."""
        self.run()
        if self.stopped_by is not None:
            raise SystemExit(128 + self.stopped_by)

    def _install_signal_handlers(self) -> None:
        import asyncio
        import signal

        try:
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGTERM, signal.SIGHUP):
                loop.add_signal_handler(signum, self._stop_on_signal, signum)
        except (RuntimeError, NotImplementedError, ValueError, AttributeError):  # no loop, not the main thread
            pass

    def _stop_on_signal(self, signum: int) -> None:
        self.stopped_by = int(signum)
        self.action_quit_game()

    def on_mount(self) -> None:
        self._install_signal_handlers()
        self.title = self.game_title
        self.set_interval(0.1, self._tick)
        self.refresh_view()
        if self.resume is not None:
            data, self.resume = self.resume, None
            question = (
                f"Resume your last {data.domain} game ({len(data.history)} moves, {format_time(data.elapsed_s)})?"
            )

            def answer(yes: bool | None) -> None:
                if yes:
                    self._load_data(data, "the autosave")
                else:
                    self.say("New game (the autosave is replaced when you quit).")

            self.push_screen(Confirm(question), answer)

    def _panel(self, selector: str) -> Static:
        """A text panel of the game screen, kept from `compose`: a query would search a
        prompt on top of it, or find nothing while the app starts or shuts down."""
        return self._panels[selector]

    def say(self, text: str) -> None:
        self.message = text
        self._panel("#message").update(text)

    def refresh_view(self) -> None:
        self.board.refresh(layout=True)
        s = self.session
        lines = [self.describe_game(), "", self.counters(), f"Time   [b]{format_time(s.clock.elapsed)}[/b]"]
        if s.hints:
            lines.append(f"Hints  {s.hints}")
        lines.append(f"Speed  {SPEEDS[self.speed]:g} s/move")
        if s.solved:
            lines += ["", "[b green]SOLVED[/b green]"]
        self._panel("#info").update("\n".join(line for line in lines if line is not None))

    def _tick(self) -> None:
        if self.runner.busy:
            self._panel("#solver").update(self.runner.status().line())
        elif self.runner.done:
            self._panel("#solver").update("")
            self._finish_solve()
        if self.session.clock.running:
            self.refresh_view()

    # -- moves ---------------------------------------------------------------------------------
    def action_direction(self, direction: str) -> None:
        move = self.move_for(direction)
        if move is not None:
            self.player_move(move)

    def player_move(self, move: str) -> bool:
        """A move the player asked for (key or click)."""
        if self._animation is not None:
            self._stop_animation("Animation stopped.")
        if self.session.solved:
            self.say("Solved already: n / R for another game, u to undo.")
            return False
        if not self.session.play(move):
            return False
        self._moved(self.session.history[-1])  # as recorded (e.g. a push in capitals)
        return True

    def _moved(self, move: str) -> None:
        plan = self.plan
        if plan is not None and plan.moves and plan.moves[0].lower() == move.lower():
            plan.moves.pop(0)
            plan.key = self.session.position_key()
        else:
            self.plan = None
        self.say("")
        self.after_move(move)
        if self.session.solved:
            self._won()
        self.refresh_view()

    def _won(self) -> None:
        if self._animating_by_solver:
            self.say(f"The solver finished the game: {self.session.moves} moves in all.")
        else:
            self.say(self.solved_message())
        if self.autosave:
            remove_autosave(self.session.domain)

    def action_undo(self) -> None:
        self._stop_animation()
        if self.session.undo():
            self.plan = None
            self.say("")
            self.refresh_view()
        else:
            self.say("Nothing to undo.")

    def action_redo(self) -> None:
        self._stop_animation()
        if self.session.future and self.session.redo():
            self._moved(self.session.history[-1])
            return
        self.say("Nothing to redo.")

    def action_restart(self) -> None:
        self._stop_animation()
        self.session.restart()
        self._generation += 1
        self.plan = None
        self.say("Restarted: the same game from its start.")
        self.refresh_view()

    def set_session(self, session: GameSession, message: str = "") -> None:
        """Play ``session`` from now on (new game, level change, load)."""
        self._stop_animation()
        if self.runner.busy:
            self.runner.cancel()
        self.session = session
        self._generation += 1
        self.plan = None
        self.say(message)
        self.refresh_view()

    # -- hints and auto-solve --------------------------------------------------------------------
    def _plan_here(self) -> Plan | None:
        plan = self.plan
        if plan is not None and plan.found and plan.key == self.session.position_key():
            return plan
        return None

    def _start_solve(self, mode: str) -> None:
        if self.runner.busy:
            self.say("The solver is still running (Esc cancels it).")
            return
        if self.session.solved:
            self.say("Already solved.")
            return
        if self.runner.start(self.session.solve_task(), "hint" if mode == "hint" else "auto-solve"):
            self.runner_mode = mode
            self._solve_generation = self._generation
            self.say("Solving in the background... keep playing, or Esc to cancel.")
            self._panel("#solver").update(self.runner.status().line())

    def action_hint(self) -> None:
        self._stop_animation()
        if self.runner.done:  # an answer not yet picked up by the timer
            self._finish_solve()
            if self._plan_here() is not None:
                return
        plan = self._plan_here()
        if plan is not None:
            self._show_hint(plan)
        else:
            self._start_solve("hint")

    def action_solve(self) -> None:
        if self.session.solved:
            self.say("Already solved: n / R for another game, u to undo.")
            return
        if self._animation is not None:
            self.say("Already playing the solution: Esc stops it, +/- change the speed.")
            return
        if self.runner.done:
            mode = self.runner_mode
            self._finish_solve()
            if mode == "solve":
                return
        plan = self._plan_here()
        if plan is not None and not self.runner.busy:
            self._play_plan(plan)
        else:
            self._start_solve("solve")

    def action_cancel(self) -> None:
        if self.runner.busy:
            if self.runner.cancel():
                self.say("Cancelling the solver...")
        elif self._animation is not None:
            self._stop_animation("Animation stopped.")

    def _finish_solve(self) -> None:
        plan, error, cancelled = self.runner.collect()
        mode, self.runner_mode = self.runner_mode, ""
        if self._solve_generation != self._generation:
            return  # an answer for a game that is gone
        if cancelled:
            self.say("Solver cancelled.")
            return
        if error:
            self.say(f"Solver failed: {error}")
            return
        if not plan.found:
            why = {"no-solution": "no solution from this position (undo some moves)"}.get(
                plan.status, f"the solver gave up ({plan.detail or plan.status})"
            )
            self.say(f"No plan: {why}.")
            return
        if plan.key != self.session.position_key():
            self.say("You moved while the solver ran: ask again for a plan from here.")
            return
        self.plan = plan
        if mode == "hint":
            self._show_hint(plan)
        else:
            self._play_plan(plan)

    def _quality(self, plan: Plan) -> str:
        return "optimal" if (plan.quality or "").startswith("optimal") else "good, not optimal"

    def _show_hint(self, plan: Plan) -> None:
        if not plan.moves:
            self.say("Already solved.")
            return
        self.session.hints += 1
        self.say(f"Hint: {self.describe_move(plan.moves[0])}   ({len(plan.moves)} moves to go, {self._quality(plan)})")
        self.refresh_view()

    def _play_plan(self, plan: Plan) -> None:
        self._stop_animation()
        self.say(f"Playing the solver's {len(plan.moves)} moves ({self._quality(plan)}); Esc stops, +/- speed.")
        self._animating_by_solver = True
        self._animation = self.set_interval(SPEEDS[self.speed], self._animation_step)

    def _animation_step(self) -> None:
        plan = self.plan
        if plan is None or not plan.moves or self.session.solved:
            self._stop_animation()
            return
        move = plan.moves[0]
        if not self.session.play(move):
            self._stop_animation(f"The plan's move {move!r} is not legal here; stopped.")
            return
        self._moved(self.session.history[-1])
        if self.session.solved:
            self._stop_animation()

    def _stop_animation(self, message: str | None = None) -> None:
        if self._animation is not None:
            self._animation.stop()
            self._animation = None
            if message:
                self.say(message)
        self._animating_by_solver = False

    @property
    def animating(self) -> bool:
        return self._animation is not None

    def action_speed(self, step: int) -> None:
        self.speed = min(max(self.speed + step, 0), len(SPEEDS) - 1)
        if self._animation is not None:
            self._animation.stop()
            self._animation = self.set_interval(SPEEDS[self.speed], self._animation_step)
        self.refresh_view()

    # -- saving -----------------------------------------------------------------------------------
    def default_save_path(self) -> str:
        return str(self.save_path or Path.cwd() / f"searchkit-{self.session.domain}.json")

    def action_save(self) -> None:
        def done(path: str | None) -> None:
            if path:
                self.save_to(path)

        self.push_screen(TextPrompt("Save the game to:", self.default_save_path()), done)

    def save_to(self, path: str | Path) -> bool:
        try:
            written = write_save(path, self.session.to_save())
        except InputError as e:
            self.say(f"Error: {e}")
            return False
        self.save_path = written
        self.say(f"Saved to {written}.")
        return True

    def action_load(self) -> None:
        def done(path: str | None) -> None:
            if path:
                self.load_from(path)

        self.push_screen(TextPrompt("Load a game from:", self.default_save_path()), done)

    def load_from(self, path: str | Path) -> bool:
        """Load a save; on any problem say so in one line and keep the current game."""
        try:
            data = read_save(path, self.session.domain)
        except InputError as e:
            self.say(f"Error: {e}")
            return False
        if self._load_data(data, f"save file {path}"):
            self.save_path = Path(path)
            return True
        return False

    def _load_data(self, data: SaveData, where: str) -> bool:
        try:
            session = self.session_from_save(data, where)
        except InputError as e:
            self.say(f"Error: {e}")
            return False
        self.set_session(session, f"Loaded {where}: {session.moves} moves, {format_time(session.clock.elapsed)}.")
        return True

    def session_from_save(self, data: SaveData, where: str) -> GameSession:
        return type(self.session).from_save(data, where)

    def write_autosave(self) -> None:
        """Keep an unfinished game for the next ``play``; forget a finished or untouched one."""
        if not self.autosave:
            return
        s = self.session
        if s.solved or (not s.history and not s.future):
            remove_autosave(s.domain)
            return
        try:
            write_save(autosave_path(s.domain), s.to_save())
        except InputError:
            pass  # quitting must not fail because the state directory is read-only

    def action_quit_game(self) -> None:
        self.runner.cancel()
        self._stop_animation()
        self.write_autosave()
        self.exit()


def offer_resume(domain: str, load: str | None, new: bool) -> tuple[SaveData | None, SaveData | None, str | None]:
    """What a ``play`` command starts from: ``(loaded, autosave to offer, message)``.

    ``--load FILE`` wins (an unreadable file is an InputError: the CLI prints one line);
    otherwise a valid autosave is offered unless ``--new`` is given.
    """
    if load:
        return read_save(load, domain), None, None
    if new:
        return None, None, None
    path = autosave_path(domain)
    if not path.exists():
        return None, None, None
    try:
        return None, read_save(path, domain), None
    except InputError as e:
        return None, None, f"Autosave ignored: {e}"
