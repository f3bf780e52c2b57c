"""``searchkit serve``: the games and the searches in a local web page (Starlette + uvicorn).

`app.build_app` makes the ASGI app; `games` keeps the players' game sessions, `searches`
runs watched searches
(and tree exports) in worker processes (`workers`) and streams their events in batches.
"""
