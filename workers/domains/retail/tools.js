// The retail domain's tools. Each top-level function is the tool of the same name in domain.json:
// it gets the database (change it in place), the call's arguments (already checked against the
// tool's JSON schema) and { today }, and returns what the agent reads. Throwing an Error refuses
// the call: the agent reads the message and the database is left as it was. Runs in the QuickJS
// sandbox; no clock, no randomness.

function customerOf(db, customerId) {
  var customer = db.customers[customerId];
  if (!customer) throw new Error('No customer with id ' + customerId + '.');
  return customer;
}

function orderOf(db, orderId) {
  var order = db.orders[orderId];
  if (!order) throw new Error('No order with id ' + orderId + '.');
  return order;
}

function productOf(db, productId) {
  var product = db.products[productId];
  if (!product) throw new Error('No product with id ' + productId + '.');
  return product;
}

function itemOf(order, orderId, itemId) {
  var item = order.items.find(function (i) { return i.item_id === itemId; });
  if (!item) throw new Error('Order ' + orderId + ' has no item ' + itemId + '.');
  return item;
}

function find_customer_by_email(db, args) {
  var email = args.email.trim().toLowerCase();
  var id = Object.keys(db.customers).find(function (key) { return db.customers[key].email.toLowerCase() === email; });
  if (!id) throw new Error('No customer with the e-mail address ' + args.email + '.');
  return { customer_id: id, name: db.customers[id].name, zip: db.customers[id].zip };
}

function get_customer(db, args) {
  var customer = customerOf(db, args.customer_id);
  var orders = Object.keys(db.orders).filter(function (id) { return db.orders[id].customer_id === args.customer_id; });
  return Object.assign({ customer_id: args.customer_id }, customer, { order_ids: orders });
}

function list_orders(db, args) {
  customerOf(db, args.customer_id);
  return Object.keys(db.orders)
    .filter(function (id) { return db.orders[id].customer_id === args.customer_id; })
    .map(function (id) {
      var o = db.orders[id];
      return { order_id: id, status: o.status, placed: o.placed, total: o.total };
    });
}

function get_order(db, args) {
  return Object.assign({ order_id: args.order_id }, orderOf(db, args.order_id));
}

function get_product(db, args) {
  return Object.assign({ product_id: args.product_id }, productOf(db, args.product_id));
}

function list_product_variants(db, args) {
  var model = productOf(db, args.product_id).model;
  return Object.keys(db.products)
    .filter(function (id) { return db.products[id].model === model; })
    .map(function (id) {
      var p = db.products[id];
      return { product_id: id, name: p.name, size: p.size, price: p.price, stock: p.stock };
    });
}

function cancel_order(db, args) {
  var order = orderOf(db, args.order_id);
  if (order.status !== 'pending') throw new Error('Order ' + args.order_id + ' is ' + order.status + '; only a pending order can be cancelled.');
  order.items.forEach(function (item) { productOf(db, item.product_id).stock += item.quantity; });
  order.status = 'cancelled';
  order.cancel_reason = args.reason;
  return { order_id: args.order_id, status: order.status };
}

function update_shipping_address(db, args) {
  var order = orderOf(db, args.order_id);
  if (order.status !== 'pending') throw new Error('Order ' + args.order_id + ' is ' + order.status + '; only a pending order can be redirected.');
  order.shipping_address = { line1: args.line1, city: args.city, zip: args.zip };
  return { order_id: args.order_id, shipping_address: order.shipping_address };
}

function update_customer_address(db, args) {
  var customer = customerOf(db, args.customer_id);
  customer.address = { line1: args.line1, city: args.city, zip: args.zip };
  customer.zip = args.zip;
  return { customer_id: args.customer_id, address: customer.address };
}

function return_items(db, args, context) {
  var order = orderOf(db, args.order_id);
  if (order.status !== 'delivered') throw new Error('Order ' + args.order_id + ' is ' + order.status + '; only items of a delivered order can be returned.');
  if (args.item_ids.length === 0) throw new Error('Name at least one item to return.');
  var refund = 0;
  var seen = {};
  var items = args.item_ids.map(function (itemId) {
    if (seen[itemId]) throw new Error('Item ' + itemId + ' is named twice.');
    seen[itemId] = true;
    var item = itemOf(order, args.order_id, itemId);
    if (item.status !== 'ok') throw new Error('Item ' + itemId + ' of order ' + args.order_id + ' is ' + item.status + ' and cannot be returned.');
    refund += item.price * item.quantity;
    return item;
  });
  items.forEach(function (item) { item.status = 'return_requested'; });
  var returnId = 'R-' + (Object.keys(db.returns).length + 1);
  db.returns[returnId] = {
    order_id: args.order_id,
    customer_id: order.customer_id,
    item_ids: args.item_ids.slice(),
    refund: refund,
    refund_method: args.refund_method,
    status: 'requested',
    requested: context.today,
  };
  if (args.refund_method === 'store_credit') customerOf(db, order.customer_id).store_credit += refund;
  return { return_id: returnId, refund: refund, refund_method: args.refund_method };
}

function exchange_item(db, args) {
  var order = orderOf(db, args.order_id);
  if (order.status !== 'delivered') throw new Error('Order ' + args.order_id + ' is ' + order.status + '; only items of a delivered order can be exchanged.');
  var item = itemOf(order, args.order_id, args.item_id);
  if (item.status !== 'ok') throw new Error('Item ' + args.item_id + ' is ' + item.status + ' and cannot be exchanged.');
  var current = productOf(db, item.product_id);
  var wanted = productOf(db, args.new_product_id);
  if (args.new_product_id === item.product_id) throw new Error('That is the product the customer already has.');
  if (wanted.model !== current.model) throw new Error(args.new_product_id + ' is a ' + wanted.name + ', not another size of the ' + current.name + '.');
  if (wanted.stock < item.quantity) throw new Error(wanted.name + ' size ' + wanted.size + ' is out of stock.');
  wanted.stock -= item.quantity;
  current.stock += item.quantity;
  item.product_id = args.new_product_id;
  item.status = 'exchanged';
  return { order_id: args.order_id, item_id: args.item_id, product_id: args.new_product_id, size: wanted.size };
}
