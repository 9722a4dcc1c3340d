using System;
using System.Collections.Generic;
using Acme.Data;
using static Acme.Util.Strings;

namespace Acme.Orders
{
    /// <summary>
    /// Processes orders.
    /// </summary>
    [Serializable]
    [Route("api/orders")]
    public class OrderService : ServiceBase<Order>, IOrderService, IDisposable
    {
        private readonly IRepository _repo;

        public OrderService(IRepository repo) : base(repo)
        {
            _repo = repo;
        }

        [HttpGet("{id}")]
        public Order Get(int id)
        {
            var order = _repo.Find(id);
            Validate(order);
            return Order.Create(order);
        }

        public int Count => _repo.Count();

        private class Cache
        {
            public void Clear() { Reset(); }
        }

        public void Dispose() => _repo.Dispose();
    }

    public interface IOrderService : IService
    {
        Order Get(int id);
    }

    public struct Money { public decimal Amount; }

    public enum Status { New, Done }

    public record Point(int X, int Y);
}
