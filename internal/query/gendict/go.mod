module codectx/internal/query/gendict

go 1.26.0

require (
	codectx v0.0.0
	github.com/go-ego/gse v0.80.3
)

require github.com/vcaesar/cedar v0.20.2 // indirect

replace codectx => ../../..
