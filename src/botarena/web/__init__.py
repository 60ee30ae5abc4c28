"""The replay viewer (static HTML, JavaScript, canvas) and the servers that show it."""
