package syntax

import "reflect"

// Node is a node of a test's tree: the *Scenario, its *InitDecl, *Thread
// and *Param, a Stmt, an Expr, a clause, a Cond or a *CondLoc.
type Node interface{ node() }

func (*Scenario) node()        {}
func (*InitDecl) node()        {}
func (*Thread) node()          {}
func (*Param) node()           {}
func (*DeclStmt) node()        {}
func (*ExprStmt) node()        {}
func (*AssignStmt) node()      {}
func (*IncDecStmt) node()      {}
func (*IfStmt) node()          {}
func (*BlockStmt) node()       {}
func (*EmptyStmt) node()       {}
func (*Ident) node()           {}
func (*IntLit) node()          {}
func (*UnaryExpr) node()       {}
func (*BinaryExpr) node()      {}
func (*CallExpr) node()        {}
func (*TernaryExpr) node()     {}
func (*ParenExpr) node()       {}
func (*CastExpr) node()        {}
func (*RegionsClause) node()   {}
func (*LocationsClause) node() {}
func (*FilterClause) node()    {}
func (*FinalClause) node()     {}
func (*CondAnd) node()         {}
func (*CondOr) node()          {}
func (*CondNot) node()         {}
func (*CondImplies) node()     {}
func (*CondParen) node()       {}
func (*CondBool) node()        {}
func (*CondAtom) node()        {}
func (*CondLoc) node()         {}

// Inspect walks the tree below n in source order, depth first: it calls
// f(n) and, when f returns true, inspects each of n's children. Nil
// nodes (an absent clause, an if without else) are not visited, and
// neither is a call's name (CallExpr.Fun): it names a primitive, not a
// value. A *Scenario's children are its initial state, its threads and
// its clauses; a *CondAtom's are its *CondLoc and the one its value names,
// if any.
func Inspect(n Node, f func(Node) bool) {
	if isNil(n) || !f(n) {
		return
	}
	switch x := n.(type) {
	case *Scenario:
		for _, d := range x.Init {
			Inspect(d, f)
		}
		for _, t := range x.Threads {
			Inspect(t, f)
		}
		Inspect(x.Regions, f)
		Inspect(x.Locations, f)
		Inspect(x.Filter, f)
		Inspect(x.Final, f)
	case *InitDecl:
		Inspect(x.Value, f)
	case *Thread:
		for _, p := range x.Params {
			Inspect(p, f)
		}
		InspectList(x.Body, f)
	case *DeclStmt:
		Inspect(x.Init, f)
	case *ExprStmt:
		Inspect(x.X, f)
	case *AssignStmt:
		Inspect(x.LHS, f)
		Inspect(x.RHS, f)
	case *IncDecStmt:
		Inspect(x.X, f)
	case *IfStmt:
		Inspect(x.Cond, f)
		Inspect(x.Then, f)
		Inspect(x.Else, f)
	case *BlockStmt:
		InspectList(x.List, f)
	case *UnaryExpr:
		Inspect(x.X, f)
	case *BinaryExpr:
		Inspect(x.X, f)
		Inspect(x.Y, f)
	case *CallExpr:
		for _, a := range x.Args {
			Inspect(a, f)
		}
	case *TernaryExpr:
		Inspect(x.X, f)
		Inspect(x.Then, f)
		Inspect(x.Else, f)
	case *ParenExpr:
		Inspect(x.X, f)
	case *CastExpr:
		Inspect(x.X, f)
	case *LocationsClause:
		for _, l := range x.Items {
			Inspect(l, f)
		}
	case *FilterClause:
		Inspect(x.Cond, f)
	case *FinalClause:
		Inspect(x.Cond, f)
	case *CondAnd:
		Inspect(x.X, f)
		Inspect(x.Y, f)
	case *CondOr:
		Inspect(x.X, f)
		Inspect(x.Y, f)
	case *CondImplies:
		Inspect(x.X, f)
		Inspect(x.Y, f)
	case *CondNot:
		Inspect(x.X, f)
	case *CondParen:
		Inspect(x.X, f)
	case *CondAtom:
		Inspect(x.Loc, f)
		if x.Val != nil {
			Inspect(x.Val.Ref, f)
		}
	}
}

// InspectList inspects each statement of list in turn.
func InspectList(list []Stmt, f func(Node) bool) {
	for _, st := range list {
		Inspect(st, f)
	}
}

// isNil reports whether n is nil or a nil pointer (an absent clause
// passed as a Node): every node type is a pointer.
func isNil(n Node) bool {
	v := reflect.ValueOf(n)
	return !v.IsValid() || v.IsNil()
}
