"""The cardgame grammar (cardgame.lark), shipped as package data so installs find it."""
