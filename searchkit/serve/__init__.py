"""``searchkit serve``: the games and the searches in a local web page (Starlette + uvicorn).

`app.build_app` makes the ASGI app; `games` keeps the players' game sessions, `searches`
runs watched searches in worker threads and streams their events in batches.
"""
