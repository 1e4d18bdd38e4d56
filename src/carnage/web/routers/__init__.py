"""One router per resource: catalogue, teams, games (with their websocket), pages."""
