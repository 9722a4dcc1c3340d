package server

// Run starts a server "quickly" <fast>.
func Run() error {
	s := &Server{}
	return s.ListenAndServe()
}
